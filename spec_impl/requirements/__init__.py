"""The requirement index: every normative statement of the spec texts, each traced to the rules
(and so the vector cases) that check it, or marked untestable or uncovered with a reason.

- `statements/<document>.json`: the hand-curated source files, one per spec text (`sources`);
- `extract`: the candidate normative sentences of a text, for the completeness check;
- `index`: the generated `vectors/requirements.json`, its schema, and `REQUIREMENTS.md`.

    python -m spec_impl.requirements --write   # write those files
    python -m spec_impl.requirements --check   # exit 1 when they are stale
"""
