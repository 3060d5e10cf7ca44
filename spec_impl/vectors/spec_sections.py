"""The section table of the rule index: which spec document and heading a rule's `section` cites,
the anchor of that heading on the published site, and a short quote from the spec text.

`Rule.section` is a bare string of citations joined with "; " ("Appendix C: Partition Specs",
"Manifests: data_file fields (103 record_count)", "adopted 1.5 Deletion vectors", "Puffin spec:
Footer structure, FileMetadata", "v4 proposal: Root Manifests 1.e"). `parse_section` turns each
into `Citation`s:

- table spec headings are those of the 2024 seed text (`000_*.txt`, the lines the site marks with
  a link sign), view spec headings those of the draft (`001_*.txt`), v4 headings those of the
  single-file-commits proposal (`004_*.txt`, which has no published page: it is cited by its title
  and heading);
- digest citations ("adopted N.M ...") name a section of `v3-adopted-digest.md`; `DIGEST` maps each
  to the published table, Puffin or view spec section it summarizes, and the quote comes from the
  digest section itself (the Puffin spec is quoted through the digest's §1.6 and §4, since its text
  is not among the spec texts);
- anchors are made as the site's markdown renderer makes them (`slugify`: lowercase, punctuation
  dropped, spaces to dashes; a repeated heading gets `_1`, `_2`).

The spec texts live outside the repository (`spec_dir()`); only the headings (not prose) are
listed here. `quote` picks the sentence of the cited section sharing the most weighted keywords
with the rule; `QUOTES` holds the few hand-chosen sentences where that pick is wrong.
"""

from __future__ import annotations

import math
import os
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from spec_impl.vectors.spec_quotes import QUOTES

SPEC_DIR_ENV = "ICEBERG_SPEC_DIR"
MAX_QUOTE = 300

TABLE, VIEW, PUFFIN, V4 = "table-spec", "view-spec", "puffin-spec", "v4-proposal"
DOCUMENTS = {
    TABLE: {
        "title": "Iceberg Table Spec",
        "url": "https://iceberg.apache.org/spec/",
        "file": "000_60deb644de29d3e6.txt",
    },
    VIEW: {
        "title": "Iceberg View Spec",
        "url": "https://iceberg.apache.org/view-spec/",
        "file": "001_7d950bd0efa94146.txt",
    },
    PUFFIN: {"title": "Puffin file format", "url": "https://iceberg.apache.org/puffin-spec/", "file": None},
    V4: {"title": "Iceberg Single File Commits (format v4 proposal)", "url": None, "file": "004_535f3eae0ad26c61.txt"},
}
DIGEST_FILE = "v3-adopted-digest.md"

# The seed table spec's headings in order, with the heading each subsection belongs to (a section's
# text runs over its subsections). Appendix headings own everything up to the next appendix.
TABLE_HEADINGS: tuple[tuple[str, str | None], ...] = (
    ("Iceberg Table Spec", None),
    ("Format Versioning", None),
    ("Version 1: Analytic Data Tables", "Format Versioning"),
    ("Version 2: Row-level Deletes", "Format Versioning"),
    ("Goals", None),
    ("Overview", None),
    ("Optimistic Concurrency", None),
    ("Sequence Numbers", None),
    ("Row-level Deletes", None),
    ("File System Operations", None),
    ("Specification", None),
    ("Terms", "Specification"),
    ("Writer requirements", "Specification"),
    ("Schemas and Data Types", "Specification"),
    ("Nested Types", "Schemas and Data Types"),
    ("Primitive Types", "Schemas and Data Types"),
    ("Default values", "Schemas and Data Types"),
    ("Schema Evolution", "Schemas and Data Types"),
    ("Column Projection", "Schemas and Data Types"),
    ("Identifier Field IDs", "Schemas and Data Types"),
    ("Reserved Field IDs", "Schemas and Data Types"),
    ("Partitioning", "Specification"),
    ("Partition Transforms", "Partitioning"),
    ("Bucket Transform Details", "Partitioning"),
    ("Truncate Transform Details", "Partitioning"),
    ("Partition Evolution", "Specification"),
    ("Sorting", "Specification"),
    ("Manifests", "Specification"),
    ("Manifest Entry Fields", "Manifests"),
    ("Sequence Number Inheritance", "Manifests"),
    ("Snapshots", "Specification"),
    ("Manifest Lists", "Snapshots"),
    ("Scan Planning", "Snapshots"),
    ("Snapshot Reference", "Specification"),
    ("Snapshot Retention Policy", "Specification"),
    ("Table Metadata", "Specification"),
    ("Table Metadata Fields", "Table Metadata"),
    ("Table Statistics", "Table Metadata"),
    ("Partition Statistics", "Table Metadata"),
    ("Partition Statistics File", "Partition Statistics"),
    ("Commit Conflict Resolution and Retry", "Specification"),
    ("File System Tables", "Commit Conflict Resolution and Retry"),
    ("Metastore Tables", "Commit Conflict Resolution and Retry"),
    ("Delete Formats", "Specification"),
    ("Position Delete Files", "Delete Formats"),
    ("Equality Delete Files", "Delete Formats"),
    ("Delete File Stats", "Delete Formats"),
    ("Appendix A: Format-specific Requirements", None),
    ("Avro", "Appendix A: Format-specific Requirements"),
    ("Parquet", "Appendix A: Format-specific Requirements"),
    ("ORC", "Appendix A: Format-specific Requirements"),
    ("Appendix B: 32-bit Hash Requirements", None),
    ("Appendix C: JSON serialization", None),
    ("Schemas", "Appendix C: JSON serialization"),
    ("Partition Specs", "Appendix C: JSON serialization"),
    ("Sort Orders", "Appendix C: JSON serialization"),
    ("Table Metadata and Snapshots", "Appendix C: JSON serialization"),
    ("Name Mapping Serialization", "Appendix C: JSON serialization"),
    ("Content File (Data and Delete) Serialization", "Appendix C: JSON serialization"),
    ("File Scan Task Serialization", "Appendix C: JSON serialization"),
    ("Appendix D: Single-value serialization", None),
    ("Binary single-value serialization", "Appendix D: Single-value serialization"),
    ("JSON single-value serialization", "Appendix D: Single-value serialization"),
    ("Appendix E: Format version changes", None),
    ("Version 3", "Appendix E: Format version changes"),
    ("Version 2", "Appendix E: Format version changes"),
)
# Table spec headings of the adopted spec that the seed text does not have (cited through the digest).
ADOPTED_TABLE_HEADINGS = ("Row Lineage", "Deletion Vectors")
# The view spec draft's headings; the published view spec calls "Original View Definition in SQL"
# "SQL representation".
VIEW_HEADINGS: tuple[tuple[str, str | None], ...] = (
    ("Background and Motivation", None),
    ("Goals", None),
    ("Overview", None),
    ("Metadata Location", None),
    ("Specification", None),
    ("Terms", "Specification"),
    ("View Metadata", "Specification"),
    ("Versions", "View Metadata"),
    ("Version Log", "View Metadata"),
    ("Summary", "View Metadata"),
    ("Representations", "View Metadata"),
    ("Original View Definition in SQL", "Representations"),
    ("Appendix A: An Example", None),
)
VIEW_PUBLISHED = {"Original View Definition in SQL": "SQL representation"}
PUFFIN_HEADINGS = (
    "File structure",
    "Footer structure",
    "Footer Payload",
    "FileMetadata",
    "BlobMetadata",
    "Blob types",
    "deletion-vector-v1 blob type",
    "Compression codecs",
    "Common properties",
)
# The proposal's normative headings, in order (the text after "Discarded Approaches" is unrelated).
V4_HEADINGS: tuple[tuple[str, str | None], ...] = (
    ("Motivation", None),
    ("Goals", None),
    ("Non-Goals", None),
    ("Proposal", None),
    ("Root Manifests", "Proposal"),
    ("Why limit tree depth to 2?", "Proposal"),
    ("Commit Procedure", None),
    ("Adding data files / delete files", "Commit Procedure"),
    ("Removing a data file / delete file or adding a Delete Vector for a Root Manifest Data File", "Commit Procedure"),
    ("Manifest Compaction", "Commit Procedure"),
    ("Examples", None),
    ("Append Files", "Examples"),
    ("Remove Files", "Examples"),
    ("Removing a File From the Root Manifest", "Remove Files"),
    ("Removing a File From a Leaf Manifest", "Remove Files"),
    ("Overwrite Files", "Examples"),
    ("Row Delta", "Examples"),
    ("Optional Affinity between Data and Delete Manifests", None),
    ("Proposed Manifest Structure", None),
    ("Summary of Changes", "Proposed Manifest Structure"),
    ("V4 content entry structure", "Proposed Manifest Structure"),
    ("V4 content entry version_info struct", "Proposed Manifest Structure"),
    ("V4 content entry deletion_vector struct", "Proposed Manifest Structure"),
    ("V4 Manifest Key Value Metadata", "Proposed Manifest Structure"),
    ("How existing manifest list fields map to Proposed V4 content entry fields", "Proposed Manifest Structure"),
    ("Upgrade", None),
    ("Open Questions:", None),
    ("Appendix", None),
)
# Where a v4 citation's detail names a field, the subsection that defines it.
V4_FIELD_TABLES = {
    "version_info": "V4 content entry version_info struct",
    "deletion_vector": "V4 content entry deletion_vector struct",
    "V4 Manifest Key Value Metadata": "V4 Manifest Key Value Metadata",
}

# Digest section -> (document, published heading it summarizes). Sections of §3 ("Changes since
# mid-2024") are cited with the row's area ("adopted 3 Appendix B").
DIGEST: dict[str, tuple[str, str]] = {
    "1": (TABLE, "Version 3"),
    "1.1": (TABLE, "Primitive Types"),
    "1.2": (TABLE, "Default values"),
    "1.3": (TABLE, "Partition Specs"),
    "1.4": (TABLE, "Row Lineage"),
    "1.5": (TABLE, "Deletion Vectors"),
    "1.6": (PUFFIN, "deletion-vector-v1 blob type"),
    "1.7": (TABLE, "Table Metadata Fields"),
    "1.8": (TABLE, "Version 3"),
    "2": (TABLE, "Scan Planning"),
    "3": (TABLE, "Appendix E: Format version changes"),
    "4": (PUFFIN, "File structure"),
    "5": (VIEW, "View Metadata"),
}
DIGEST_SUBJECTS = {
    "1.1 type promotion": (TABLE, "Schema Evolution"),
    "3 appendix b": (TABLE, "Appendix B: 32-bit Hash Requirements"),
    "3 appendix d": (TABLE, "Appendix D: Single-value serialization"),
    "3 table metadata": (TABLE, "Table Metadata Fields"),
}
# Short forms of the table spec's headings used in rule sections.
ALIASES = {
    "Appendix A": "Appendix A: Format-specific Requirements",
    "Appendix C": "Appendix C: JSON serialization",
    "Appendix D": "Appendix D: Single-value serialization",
    "Appendix E": "Appendix E: Format version changes",
    "Snapshot References": "Snapshot Reference",
    "Delete Files": "Delete Formats",
    "Branching and Tagging": "Snapshot Reference",
}


@dataclass(frozen=True)
class Citation:
    """One cited section: the document, its heading on the published page (or in the proposal),
    and where its text is (the spec file and the heading or digest section in it)."""

    cited: str  # the citation as written in Rule.section
    document: str
    heading: str
    source_file: str
    source_heading: str  # a heading of source_file, or "§N.M" of the digest
    detail: str = ""  # what the citation adds in parentheses or after the heading

    @property
    def url(self) -> str | None:
        base = DOCUMENTS[self.document]["url"]
        return None if base is None else f"{base}#{anchor(self.document, self.heading)}"


def slugify(heading: str) -> str:
    """The anchor the site's markdown renderer makes from a heading: accents and punctuation
    dropped, lowercase, runs of spaces and dashes to one dash."""
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _published_headings(document: str) -> list[str]:
    if document == TABLE:
        return [h for h, _ in TABLE_HEADINGS] + list(ADOPTED_TABLE_HEADINGS)
    if document == VIEW:
        return [VIEW_PUBLISHED.get(h, h) for h, _ in VIEW_HEADINGS]
    if document == PUFFIN:
        return list(PUFFIN_HEADINGS)
    return [h for h, _ in V4_HEADINGS]


@cache
def anchors(document: str) -> dict[str, str]:
    """heading -> anchor, repeated slugs numbered as the renderer numbers them."""
    seen: dict[str, int] = {}
    out: dict[str, str] = {}
    for h in _published_headings(document):
        slug = slugify(h)
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.setdefault(h, slug if n == 0 else f"{slug}_{n}")
    return out


def anchor(document: str, heading: str) -> str:
    try:
        return anchors(document)[heading]
    except KeyError:
        raise KeyError(f"{heading!r} is not a heading of the {document}") from None


# --- parsing Rule.section --------------------------------------------------------------------------


def _split_detail(text: str) -> tuple[str, str]:
    m = re.fullmatch(r"(.*?)\s*\((.*)\)\s*", text)
    return (m.group(1), m.group(2)) if m else (text.strip(), "")


def _table_citation(cited: str, text: str) -> Citation | None:
    """A table or view spec heading: "Heading", "Heading (detail)", "Appendix X: Sub", "Heading:
    detail", "Appendix E v3"; a subsection named in the detail ("Appendix A (Parquet)") is cited."""
    head, detail = _split_detail(text)
    parents = dict(TABLE_HEADINGS)
    view = {VIEW_PUBLISHED.get(h, h).lower(): h for h, _ in VIEW_HEADINGS} | {h.lower(): h for h, _ in VIEW_HEADINGS}
    head = ALIASES.get(head, head)
    m = re.fullmatch(r"(Appendix [A-E])\s+(v\d)", head)  # "Appendix E v3"
    if m:
        head = f"{m.group(1)}: Version {m.group(2)[1:]}"
    sub = ""
    if head not in parents and ":" in head:
        first, sub = (x.strip() for x in head.split(":", 1))
        head = ALIASES.get(first, first)
    for name in (sub, detail):  # a subsection named after the colon or in parentheses
        child = next((h for h, p in TABLE_HEADINGS if p == head and h.lower() == name.lower()), None)
        if child:
            head, sub, detail = child, "" if name == sub else sub, "" if name == detail else detail
    if head.startswith("Appendix E") and sub.startswith(("Reading v1 metadata for v2", "Writing v1")):
        head = "Version 2" if sub.startswith("Reading") else "Version 3"  # the seed's Appendix E subsections
    detail = ", ".join(x for x in (sub, detail) if x)
    if head in parents:
        return Citation(cited, TABLE, head, DOCUMENTS[TABLE]["file"], head, detail)
    if head in ADOPTED_TABLE_HEADINGS:
        section = "§1.5" if head == "Deletion Vectors" else "§1.4"
        return Citation(cited, TABLE, head, DIGEST_FILE, section, detail)
    if head.lower() in view:
        draft = view[head.lower()]
        child = next(
            (h for h, p in VIEW_HEADINGS if p == draft and VIEW_PUBLISHED.get(h, h).lower() == sub.lower()), None
        )
        if child:
            draft, detail = child, detail.removeprefix(sub).strip(", ")
        return Citation(cited, VIEW, VIEW_PUBLISHED.get(draft, draft), DOCUMENTS[VIEW]["file"], draft, detail)
    return None


def _digest_citations(cited: str, text: str) -> list[Citation]:
    """ "adopted 1.5 Deletion vectors", "adopted 1.4, 1.5", "adopted 3 Appendix B", "adopted v3 digest §1.5"."""
    text = re.sub(r"^(v3 digest\s*)?§", "", text.strip())
    m = re.fullmatch(r"((?:\d+(?:\.\d+)?)(?:\s*,\s*\d+(?:\.\d+)?)*)\s*(.*)", text)
    if not m:
        return []
    numbers = [n.strip() for n in m.group(1).split(",")]
    subject = m.group(2).strip()
    out = []
    for n in numbers:
        key = f"{n} {subject}".lower().strip()
        document, heading = next((v for k, v in DIGEST_SUBJECTS.items() if key.startswith(k)), DIGEST[n])
        if ":" in subject and n == "5":  # "View spec: View Metadata"
            heading = subject.split(":", 1)[1].strip()
        out.append(Citation(cited, document, heading, DIGEST_FILE, f"§{n}", subject))
    return out


def _puffin_citations(cited: str, text: str) -> list[Citation]:
    out = []
    for part in (p.strip() for p in text.split(",")):
        heading = next(h for h in PUFFIN_HEADINGS if h.lower() == part.lower())
        section = "§1.6" if heading == "deletion-vector-v1 blob type" else "§4"
        out.append(Citation(cited, PUFFIN, heading, DIGEST_FILE, section))
    return out


def _v4_citation(cited: str, text: str) -> Citation:
    headings = [h for h, _ in V4_HEADINGS]
    head, detail = _split_detail(text)
    m = re.fullmatch(r"(.*?)\s+(\d[\w.,\s]*)", head)
    if head not in headings and m and m.group(1) in headings:  # "Root Manifests 1.d, 1.e"
        head, detail = m.group(1), ", ".join(x for x in (m.group(2), detail) if x)
    if head not in headings:
        raise KeyError(f"{head!r} is not a heading of the v4 proposal")
    if detail in headings:  # "Examples (Removing a File From a Leaf Manifest)": the subsection
        head, detail = detail, ""
    source = head
    for key, sub in V4_FIELD_TABLES.items():
        if key in detail.split(".")[0].split(" ")[0] or detail == key:
            source = sub
    return Citation(cited, V4, head, DOCUMENTS[V4]["file"], source, detail)


def parse_section(section: str) -> list[Citation]:
    """The sections a `Rule.section` string cites, in order, without repeats. Raises KeyError for
    a citation this table cannot place."""
    out: list[Citation] = []
    last_prefix = ""
    for part in (p.strip() for p in section.split(";")):
        if re.fullmatch(r"\d+(\.\d+)?", part) and last_prefix == "adopted":  # "adopted 2 Delete scoping; 1.5"
            part = f"adopted {part}"
        if part.startswith("adopted "):
            last_prefix = "adopted"
            found = _digest_citations(part, part.removeprefix("adopted "))
        elif part.startswith("Puffin spec:"):
            last_prefix = ""
            found = _puffin_citations(part, part.removeprefix("Puffin spec:"))
        elif part.startswith("v4 proposal:") or last_prefix == "v4":  # "v4 proposal: Proposal; Upgrade"
            last_prefix = "v4"
            found = [_v4_citation(part, part.removeprefix("v4 proposal:").strip())]
        elif part.startswith("View spec draft (001):"):
            found = [c for c in [_table_citation(part, part.split(":", 1)[1].strip())] if c and c.document == VIEW]
        else:
            last_prefix = ""
            c = _table_citation(part, part)
            if c is None and "(" in part:  # a parenthetical that is itself a citation list
                c = _table_citation(part, _split_detail(part)[0])
            found = [c] if c else []
        if not found:
            raise KeyError(f"cannot place the citation {part!r} (of {section!r})")
        for c in found:
            if all((c.document, c.heading, c.source_heading) != (o.document, o.heading, o.source_heading) for o in out):
                out.append(c)
    return out


# --- the spec texts -----------------------------------------------------------------------------------


def spec_dir() -> Path:
    """Where the spec texts are: $ICEBERG_SPEC_DIR, else `shared/spec` beside the checkout."""
    env = os.environ.get(SPEC_DIR_ENV)
    return Path(env) if env else Path(__file__).resolve().parents[3] / "shared" / "spec"


def normalize(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@cache
def _lines(directory: Path, name: str) -> tuple[str, ...]:
    return tuple((directory / name).read_text(encoding="utf-8").splitlines())


def _heading_line(line: str, document: str) -> str | None:
    s = line.strip()
    if document == TABLE:
        return s.removesuffix("🔗") if s.endswith("🔗") else None
    return s


def _body(directory: Path, name: str, document: str, heading: str) -> list[str]:
    """The lines of `heading`'s section and its subsections."""
    table = {TABLE: TABLE_HEADINGS, VIEW: VIEW_HEADINGS, V4: V4_HEADINGS}[document]
    parents = dict(table)
    order = [h for h, _ in table]

    def within(h: str) -> bool:  # whether h is `heading` or one of its subsections
        while h is not None:
            if h == heading:
                return True
            h = parents.get(h)
        return False

    lines = _lines(directory, name)
    known = set(order)
    out: list[str] = []
    inside = False
    position = -1
    for line in lines:
        h = _heading_line(line, document)
        if h in known and order.index(h) > position:
            position = order.index(h)
            inside = within(h)
            if h == order[-1] and not inside and out:
                break
            continue
        if inside:
            out.append(line)
    if not out:
        raise KeyError(f"no text for {heading!r} in {name}")
    return out


def _digest_body(directory: Path, number: str) -> list[str]:
    lines = _lines(directory, DIGEST_FILE)
    out: list[str] = []
    inside = False
    for line in lines:
        m = re.match(r"(#{2,3}) (\d+(?:\.\d+)?)[. ]", line)
        if m:
            inside = m.group(2) == number or (inside and len(m.group(1)) > 2 and "." not in number)
            continue
        if line.startswith("#"):
            inside = False
        if inside:
            out.append(line)
    if not out:
        raise KeyError(f"no digest section §{number}")
    return out


def section_lines(citation: Citation, directory: Path | None = None) -> list[str]:
    directory = directory or spec_dir()
    if citation.source_file == DIGEST_FILE:
        return _digest_body(directory, citation.source_heading.removeprefix("§"))
    return _body(directory, citation.source_file, citation.document, citation.source_heading)


# --- choosing the quote ----------------------------------------------------------------------------

_STOP = set(
    """a an the of to in on for and or is are be by as at it its with from that this these those not no
any all each one two when than then else which what who whose must may should can only also into per
their there been was were has have had does do if but so such other same more most less via
rule reference spec""".split()
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"'(\[_0-9])")


def _tokens(text: str) -> list[str]:
    out = []
    for t in re.findall(r"[a-z0-9_]+(?:[-.][a-z0-9_]+)*", text.lower()):
        parts = [t] + (re.split(r"[-._]", t) if re.search(r"[-._]", t) else [])
        for p in parts:
            p = p.strip(".")
            if len(p) > 3 and p.endswith("s") and not p.endswith("ss"):
                p = p[:-1]
            if p and p not in _STOP and (len(p) > 2 or p.isdigit()):
                out.append(p)
    return out


def _paragraphs(lines: list[str], cells: bool = False) -> list[str]:
    """Lines, rejoined where the text breaks a sentence with a blank line (a line ending without
    punctuation, a blank line, a line starting in lower case: a page break of the source). With
    `cells`, each cell of a table row (tab-separated, or a Markdown row) is a line of its own."""
    out: list[str] = []
    blank = False
    split = [
        cell.strip().strip("|")
        for x in lines
        for cell in (re.split(r"\t|\s\|\s", x) if cells else [x.replace("\t", " ")])
    ]
    for line in (normalize(x) for x in split):
        if not line:
            blank = True
            continue
        if out and blank and re.match(r"[a-z]", line) and re.search(r"[A-Za-z,]$", out[-1]) and len(out[-1]) >= 80:
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
        blank = False
    return out


def sentences(lines: list[str], cells: bool = False) -> list[str]:
    """Candidate quotes: the sentences of a section, list bullets and table borders stripped,
    cut to MAX_QUOTE characters at a clause boundary; fragments of fewer than three words and
    sentences that introduce a list (ending in a colon) dropped. With `cells`, the cells of a
    tab-separated table are read one by one."""
    out = []
    for line in _paragraphs(lines, cells):
        line = re.sub(r"^(?:[-*•>]\s+|\|\s*|\d+\.\s+|[a-z]{1,3}\.\s+)+", "", line).strip().strip("|").strip()
        if set(line) <= set("-|: "):
            continue
        for sentence in _SENTENCE_END.split(line):
            sentence = sentence.strip()
            if len(sentence) > MAX_QUOTE:
                cut = max(
                    sentence.rfind("; ", 0, MAX_QUOTE),
                    sentence.rfind(", ", 0, MAX_QUOTE),
                    sentence.rfind(": ", 0, MAX_QUOTE),
                )
                sentence = sentence[:cut] if cut > 60 else sentence[: sentence.rfind(" ", 0, MAX_QUOTE)]
            if (
                len(sentence) >= 20
                and len(re.findall(r"[A-Za-z]{2,}", sentence)) >= 3
                and not sentence.endswith((":", ":**"))
            ):
                out.append(sentence)
    return out


# --- whole sentences ------------------------------------------------------------------------------

MIN_WORDS = 4
_CELL_BORDER = re.compile(r"[|\t]")
# An upper-case letter, code, emphasis or a quotation; or a defined term of a list ("append -- Only
# data files were added ...", the snapshot operations).
_SENTENCE_START = re.compile(r"[A-Z`*\"“]|[a-z][\w-]* -- [A-Z]")
_SENTENCE_FINAL = re.compile(r"(?:[.!?:]|\bas follows)[)\"'`*”]*$")
_FIELD_ROW = re.compile(r"(?i)(?:required|optional)(?:\s+(?:required|optional|[a-z0-9]+[-_])|(?-i:[a-z]))")


def fragment_reason(quote: str) -> str | None:
    """Why `quote` is not a whole sentence of the spec text, or None when it is one. A whole
    sentence (the rule index quotes nothing else):

    - holds no table cell border (`|` or a tab);
    - starts as a sentence starts: an upper-case letter, or code, emphasis or a quotation
      (`` ` ``, `*`, `"`), or a list's defined term (`append -- Only ...`), not a lower-case word
      or a number that continues something before it;
    - ends as a sentence ends: `.`, `!`, `?`, or `:` or the words "as follows" that introduce a
      list or table, closing quotes, brackets and emphasis aside (a sentence cut short has none);
    - has at least `MIN_WORDS` words;
    - is not a row of a field table: `required` or `optional` followed by another such word or
      a field name (`required required format-version ...`), or run into the field's name as
      the view spec's text does (`Requiredversion-log...`)."""
    text = quote.strip()
    if _CELL_BORDER.search(text):
        return "holds a table cell border"
    if not _SENTENCE_START.match(text):
        return "starts mid-sentence"
    if not _SENTENCE_FINAL.search(text):
        return "lacks a sentence end"
    if len(text.split()) < MIN_WORDS:
        return f"has fewer than {MIN_WORDS} words"
    if _FIELD_ROW.match(text):
        return "is a row of a field table"
    return None


def whole_sentences(lines: list[str]) -> list[str]:
    """The whole sentences of a section (`fragment_reason`), table cells read one by one; the
    sentences that introduce a list or table only when there is no other."""
    found: list[str] = []
    for line in _paragraphs(lines, cells=True):
        line = re.sub(r"^(?:[-*•>]\s+|\d+\.\s+|[a-z]{1,3}\.\s+)+", "", line).strip()
        found += [s.strip() for s in _SENTENCE_END.split(line) if len(s.strip()) <= MAX_QUOTE]
    whole = [s for s in dict.fromkeys(found) if fragment_reason(s) is None]
    statements = [s for s in whole if not re.search(r"(?::|\bas follows)[)\"'`*”]*$", s)]
    return statements or whole


def best_sentence(candidates: list[str], query: str, detail: str = "") -> str:
    """The candidate sharing the most keywords with `query` (and, counted double, `detail`),
    each keyword weighted by how rare it is in the section; ties go to the earlier sentence."""
    if not candidates:
        raise ValueError("no sentence to quote")
    token_sets = [set(_tokens(s)) for s in candidates]
    n = len(candidates)
    weight = {t: math.log((n + 1) / (1 + sum(t in ts for ts in token_sets))) + 1 for ts in token_sets for t in ts}
    wanted = {t: 1.0 for t in _tokens(query)}
    for t in _tokens(detail):
        wanted[t] = 2.0
    scores = [
        round(sum(weight[t] * wanted[t] for t in sorted(ts) if t in wanted) / (1 + len(ts) / 60), 9)
        for ts in token_sets
    ]
    return candidates[max(range(n), key=lambda i: (scores[i], -i))]


def occurs(quote: str, directory: Path | None = None, citation: Citation | None = None) -> bool:
    """Whether `quote` occurs verbatim (whitespace-normalized) in the spec texts (in the cited
    file when `citation` is given)."""
    directory = directory or spec_dir()
    names = [citation.source_file] if citation else sorted(p.name for p in directory.iterdir() if p.is_file())
    return any(normalize(quote) in normalize((directory / n).read_text(encoding="utf-8")) for n in names)


def quote(rule_id: str, summary: str, citation: Citation, directory: Path | None = None) -> str:
    """One whole sentence (at most MAX_QUOTE characters, `fragment_reason`) of the cited section
    that best matches the rule: the hand-chosen one, else the best of the section's sentences,
    else, when that one is a fragment (a table row), the best of its whole sentences. Raises
    ValueError when the section has no whole sentence or a hand-chosen quote is a fragment."""
    chosen = QUOTES.get((rule_id, citation.source_heading))
    if chosen is None:
        query = f"{rule_id.replace('.', ' ')} {summary}"
        lines = section_lines(citation, directory)
        chosen = best_sentence(sentences(lines), query, citation.detail)
        if fragment_reason(chosen) is not None:
            whole = whole_sentences(lines)
            if not whole:
                raise ValueError(f"{rule_id}: no whole sentence to quote in {citation.cited!r}")
            chosen = best_sentence(whole, query, citation.detail)
    reason = fragment_reason(chosen)
    if reason is not None:
        raise ValueError(f"{rule_id}: the quote of {citation.cited!r} {reason}: {chosen!r}")
    return chosen
