"""The three levels of obligation and the checks an `allowed` case may state over answers."""

MUST, ALLOWED, READING = "must", "allowed", "reading"
LEVELS = (MUST, ALLOWED, READING)

# Checks over answers (`obligation["check"]["kind"]`), judged by `conformance.obligations`:
ONE_OF = "one-of"  # the answer is one of `answers` (each {"output": ...} or {"error": "*"})
ANSWER_OR_REJECT = "answer-or-reject"  # any answer or a rejection (a reader may read or refuse)
CORRECT_OR_REJECT = "correct-or-reject"  # the reference's answer, or a refusal (a type the spec does not hash)
INCLUSIVE = "inclusive"  # never rules out what may match; keeping more is allowed
STRICT = "strict"  # never accepts what may not match; accepting less is allowed
VALID_METRICS = "valid-metrics"  # every metric written is right for the values; any may be absent, a bound looser
CHECKS = (ONE_OF, ANSWER_OR_REJECT, CORRECT_OR_REJECT, INCLUSIVE, STRICT, VALID_METRICS)

SPEC = "000_60deb644de29d3e6.txt"  # the table spec (seed)
VIEW_SPEC = "001_7d950bd0efa94146.txt"
ADOPTED = "v3-adopted-digest.md"

# The JSON Schema of a case's `obligation` (shared by every vector file's schema).
_CITATION = {
    "document": {"type": "string", "minLength": 1},
    "section": {"type": "string", "minLength": 1},
    "quote": {"type": "string", "minLength": 1},
    "table-row": {"type": "string", "minLength": 1, "description": "the table row that decides it, verbatim"},
}
_OPEN_ROWS = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["row", "question"],
        "additionalProperties": False,
        "properties": {"row": {"type": "integer", "minimum": 0}, "question": {"type": "string"}},
    },
}
SCHEMA = {
    "description": "What the spec obliges an engine to answer: must (the spec states the outcome, quoted), allowed "
    "(the spec permits a set of outcomes: `check` states it) or reading (the spec is silent or "
    "ambiguous: `question` names it; another answer is a divergence, never a failure).",
    "oneOf": [
        {
            "type": "object",
            "required": ["level", "document", "section", "quote"],
            "additionalProperties": False,
            "properties": {
                "level": {"const": MUST},
                **_CITATION,
                "rejected-by": {
                    "enum": ["reader", "validator", "writer", "computation"],
                    "description": "who must reject the input (a rejection case): every reader, a validator, a writer",
                },
                "open-rows": _OPEN_ROWS,
            },
        },
        {
            "type": "object",
            "required": ["level", "allowance", "document", "section", "quote", "check"],
            "additionalProperties": False,
            "properties": {
                "level": {"const": ALLOWED},
                "allowance": {"type": "string"},
                **_CITATION,
                "open-rows": _OPEN_ROWS,
                "rejected-by": {
                    "const": "validator",
                    "description": "who must reject the input: a validator; a reader may read it",
                },
                "check": {
                    "type": "object",
                    "required": ["kind"],
                    "properties": {
                        "kind": {"enum": list(CHECKS)},
                        "answers": {"type": "array"},
                        "row-matches": {"type": "array", "items": {"type": ["boolean", "null"]}},
                    },
                },
            },
        },
        {
            "type": "object",
            "required": ["level", "question", "asks", "alternatives", "reference"],
            "additionalProperties": False,
            "properties": {
                "level": {"const": READING},
                "question": {"type": "string"},
                "asks": {"type": "string"},
                "alternatives": {"type": "array", "minItems": 2, "items": {"type": "string"}},
                "reference": {"type": "string"},
                **_CITATION,
            },
        },
    ],
}
