"""Secrets in what a memory would hold: found before anything is embedded, indexed, logged or
audited, and named by kind and character span, never by value. Pure: no I/O.

`find_secrets(text)` is the detector; `screen_text` and `screen_json` apply it to a field (a JSON
value's keys give its strings context: {"db_password": "..."} is a password whatever it looks
like), and `screen_new` / `screen_changes` to a new memory or a patch. A write in "refuse" mode
(the default) that holds any finding raises SecretInInput naming the field, kinds and spans; in
"redact" mode each span is replaced by "[REDACTED:<kind>]" and the spans are reported.

Kinds (graph/core/vocab.py SECRET_KINDS), each a pattern plus a check that keeps ordinary text out:
  private_key     a PEM block "-----BEGIN ... PRIVATE KEY-----", to its END line or the text's end;
  aws_access_key  AKIA/ASIA/... + 16; aws_secret_key: 40 base64 characters after an AWS secret name;
  github_token    ghp_/gho_/ghu_/ghs_/ghr_ + 36, github_pat_...;  slack_token: xox?-..., webhooks;
  stripe_key      sk_/rk_ live/test keys and whsec_ (pk_ keys are publishable, not secret);
  credence_key    this service's own scoped API keys, crd_ + 43;
  anthropic_key   sk-ant-...;  openai_key: sk-... / sk-proj-... with upper, lower case and digits;
  google_api_key  AIza + 35;   jwt: three base64url parts, the first two JSON objects ("eyJ");
  generic_secret  a random-looking value assigned to a key, token, secret or bearer name;
  password        a value after a password name (password: x, "my wifi password is x", PGPASSWORD=x),
                  or in a URL's user:password@;
  card_number     13-19 digits (spaces or dashes between groups) with a card network's prefix and
                  length, Luhn-valid (python-stdnum);
  us_ssn          AAA-GG-SSSS valid per python-stdnum (not 000/666/9xx, no zero group or serial), or
                  9 digits after "SSN" / "social security";
  iban            a country code, check digits and BBAN valid per python-stdnum (mod 97 and the
                  country's length and format)."""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from stdnum import iban as stdnum_iban
from stdnum import luhn
from stdnum.us import ssn as stdnum_ssn

from graph.core.errors import InvalidInput, SecretInInput
from graph.core.vocab import SECRET_KINDS, SECRET_MODES
from graph.memories.model import MemoryPatch, NewMemory, SecretSpan

REDACTED = "[REDACTED:{kind}]"


@dataclass(frozen=True)
class Finding:
    kind: str
    start: int
    end: int


# -- patterns ---------------------------------------------------------------------------------------

_PEM = re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
                  r".*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)", re.S)
_TOKENS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("aws_access_key", re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA|AIPA|ANPA|ANVA|AGPA)"
                                  r"[A-Z0-9]{16}(?![A-Za-z0-9])")),
    ("github_token", re.compile(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{40,255})"
                                r"(?![A-Za-z0-9_])")),
    ("slack_token", re.compile(r"(?<![A-Za-z0-9])xox(?:[abposr]|e\.[a-z]+|a-2)-[A-Za-z0-9-]{10,250}"
                               r"|https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}")),
    ("stripe_key", re.compile(r"(?<![A-Za-z0-9])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,247}|whsec_[A-Za-z0-9]{24,})"
                              r"(?![A-Za-z0-9])")),
    # This service's own scoped API keys (graph/keys/service.py: "crd_" + token_urlsafe(32)).
    ("credence_key", re.compile(r"(?<![A-Za-z0-9_])crd_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")),
    ("anthropic_key", re.compile(r"(?<![A-Za-z0-9])sk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_-]{20,400}")),
    ("openai_key", re.compile(r"(?<![A-Za-z0-9])sk-(?:proj-|svcacct-|admin-|None-)?(?P<body>[A-Za-z0-9_-]{20,400})")),
    ("google_api_key", re.compile(r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])")),
    ("jwt", re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{6,}\.eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{8,}")),
)
_AWS_SECRET = re.compile(r"(?i)aws.{0,24}?(?:secret|sk)[\w. -]{0,24}?[\"']?\s*(?:[:=]|=>|\bis\b)\s*[\"']?"
                         r"(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])")

# A name that says its value is a secret: environment variables, config keys, JSON fields, prose.
_SECRET_NAME = (r"(?:api[_ -]?key|apikey|api[_ -]?secret|access[_ -]?key(?:[_ -]?id)?|secret(?:[_ -]?key)?|"
                r"client[_ -]?secret|(?:access|auth|refresh|bearer|session|api|bot|personal[_ -]?access)?[_ -]?token|"
                r"private[_ -]?key|signing[_ -]?key|app[_ -]?key|webhook[_ -]?secret|credentials?)")
_PASSWORD_NAME = r"(?:password|passwd|passphrase|passcode|passwort|pwd|pw)"
_ASSIGN = r"[\"']?\s*(?:[:=]|=>|:=)\s*"
# Names are bounded (64 characters around the secret word) and start a word, so a long run of word
# characters costs linear time, not quadratic (tests/unit/test_secrets.py times the worst cases).
_GENERIC = re.compile(r"(?i)(?<![\w.-])[\w.-]{0,64}?" + _SECRET_NAME + r"[\w.-]{0,64}" + _ASSIGN +
                      r"(?:(?P<q>[\"'`])(?P<qv>[^\"'`\n]{8,}?)(?P=q)|(?P<v>[^\s\"'`,;)}\]]{12,}))")
_GENERIC_PROSE = re.compile(r"(?i)\b" + _SECRET_NAME + r"\s+(?:is|was|=)\s+[\"'`]?(?P<v>[^\s\"'`,;)}\]]{12,})")
_BEARER = re.compile(r"(?i)\b(?:bearer|token)\s+(?P<v>[A-Za-z0-9._~+/=-]{16,})")
_PASSWORD_ASSIGN = re.compile(r"(?i)(?<![\w.-])[\w.-]{0,64}?" + _PASSWORD_NAME + r"[\w.-]{0,64}" + _ASSIGN +
                              r"(?:(?P<q>[\"'`])(?P<qv>[^\"'`\n]{1,200}?)(?P=q)|(?P<v>[^\s\"'`,;]+))")
_PASSWORD_PROSE = re.compile(
    r"(?i)\b(?:" + _PASSWORD_NAME + r"|pin(?: code)?)"
    r"(?:\s+(?:for|to|of|on|at)\s+(?:the\s+|my\s+|our\s+|your\s+)?[\w.@'/-]+(?:\s+(?:account|server|box|db|"
    r"database|router|wifi|network|vpn|portal|site|app|laptop|machine|login))?)?"
    # "my login password there is X": a place word between the name and its verb.
    r"(?:\s+(?:there|here))?"
    r"\s*(?:,\s*)?(?:(?:has\s+been\s+|was\s+|got\s+|is\s+)?(?:changed|reset|set|updated)\s+to|is(?:\s+now|\s+still)?|"
    r"was|=|:|->|became)\s+[\"'`]?(?P<v>[^\s\"'`]+)(?P<after>\s+\w+)?")
_PASSWORD_VERB = re.compile(
    r"(?i)\b(?:changed|reset|set|updated)\s+(?:my|the|our|his|her|their|your)?\s*(?:[\w-]+\s+)?"
    + _PASSWORD_NAME + r"\s+to\s+[\"'`]?(?P<v>[^\s\"'`]+)"
    r"|\buse\s+[\"'`]?(?P<u>[^\s\"'`]+?)[\"'`]?\s+as\s+(?:the\s+|my\s+|your\s+)?" + _PASSWORD_NAME + r"\b"
    r"|\blog\s*in\s+(?:as|with)\s+[\w.@-]+\s*(?:/|and|,)\s*(?:" + _PASSWORD_NAME + r"\s*:?\s*)?"
    r"[\"'`]?(?P<l>[^\s\"'`]+)")
# "user jsmith password Pa55word!": a password name, then a value with letters and digits or symbols.
_PASSWORD_BARE = re.compile(r"(?i)\b(?:" + _PASSWORD_NAME + r")\s+[\"'`]?"
                            r"(?P<v>(?=\S*[A-Za-z])(?=\S*[^\sA-Za-z])[^\s\"'`]{6,})")
_URL_PASSWORD = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]{0,30}://[^\s:/@]*:(?P<v>[^\s@/]+)@[^\s]")
# "login for the box: admin / P@ss1", "creds are bob@example.com / s3cret!": a user, a slash, a password.
_USER_SLASH = re.compile(r"(?i)\b(?:log\s*in|login|creds?|credentials|user(?:name)?|account|sign\s*in)\b[^\n/]{0,60}?"
                         r"[\w.@+-]{1,100}\s*/\s*[\"'`]?(?P<v>[^\s\"'`]+)")
# mysql -p'secret' / mysqldump -psecret: the password glued to the flag.
_CLI_PASSWORD = re.compile(r"\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]{0,200}?\s-p"
                           r"(?P<q>[\"']?)(?P<v>[^\s\"']+)(?P=q)")
_DIGITS = re.compile(r"(?<![\w.,/-])\d(?:[ -]?\d){11,18}(?![\w/]|[.,-]\d)")
_SSN = re.compile(r"(?<![\w-])\d{3}(?P<s>[- ])\d{2}(?P=s)\d{4}(?![\w-])")
_SSN_CONTEXT = re.compile(r"(?i)\b(?:ssn|ss#|ss no\.?|social security(?: number| no\.?| #)?)\s*(?:#|number|no\.?)?"
                          r"\s*(?:is|was|:|=)?\s*(?P<v>\d{3}[- ]?\d{2}[- ]?\d{4})(?![\w-])")
_IBAN = re.compile(r"(?i)(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{4}){2,8}(?:[ -]?[A-Z0-9]{1,3})?(?![A-Za-z0-9])")

# What follows "password is" in prose without being a password.
_NOT_A_PASSWORD = frozenset("""
a an the my your our his her their its this that these those it is was be been being am are were not no none
null nil true false yes too very so still now just also only same different new old wrong right correct
incorrect invalid valid expired expiring required needed missing empty blank set reset changed unchanged
stored saved kept written encrypted hashed salted managed handled shared sent known unknown weak strong long
short easy hard simple secure insecure safe unsafe complex good bad fine ok okay case-sensitive sensitive
in on at for to of from with without by as about into under over inside somewhere here there where what
which who whom whose how when why whatever something nothing anything everything one two
generated random temporary temp default usually always never probably definitely literally actually
supposed meant going gonna changing expiring rotating rotated updated locked protected visible hidden
printed listed attached included mentioned above below enabled disabled optional mandatory
manager managers policy policies field fields prompt rules requirement requirements hint hints
and or but if then else because since until unless while again anyway though
""".split())
_PLACEHOLDER = re.compile(r"(?i)^(?:\[redacted.*|<[^>]*>?|\$\{?[\w.-]*\}?|\{\{.*|%[\w(].*|\*+|x{3,}|\.{3,}|…|-+|_+|"
                          r"\?+|your[_-]?\w*|my[_-]?password|password|passw(?:or)?d|secret|changeit|redacted|"
                          r"hidden|n/?a|todo|tbd|example|placeholder|dummy|none|null|undefined|true|false|"
                          r"\S*\(\)|[a-z_]+\.[a-z_]+(?:\.[a-z_]+)*|os\.environ.*|process\.env.*|env\(.*|getenv.*)$")

# Card networks: (prefix range, allowed lengths).
_CARD_NETWORKS: tuple[tuple[int, int, tuple[int, ...]], ...] = (
    (4, 4, (13, 16, 19)),                   # Visa
    (51, 55, (16,)), (2221, 2720, (16,)),   # Mastercard
    (34, 34, (15,)), (37, 37, (15,)),       # American Express
    (6011, 6011, (16, 17, 18, 19)), (644, 649, (16, 17, 18, 19)), (65, 65, (16, 17, 18, 19)),  # Discover
    (3528, 3589, (16, 17, 18, 19)),         # JCB
    (300, 305, (14, 16, 17, 18, 19)), (36, 36, (14, 16, 17, 18, 19)), (38, 39, (14, 16, 17, 18, 19)),  # Diners
    (62, 62, (16, 17, 18, 19)),             # UnionPay
    (5018, 5018, (12, 13, 14, 15, 16, 17, 18, 19)), (5020, 5020, (12, 13, 14, 15, 16, 17, 18, 19)),
    (5038, 5038, (12, 13, 14, 15, 16, 17, 18, 19)), (6304, 6304, (12, 13, 14, 15, 16, 17, 18, 19)),  # Maestro
)
# An overlap goes to the more specific kind: a provider's token format, then a checksummed number
# (an IBAN's digits may hold a Luhn-valid run), then a value named a secret or a password.
_PRIORITY = {kind: i for i, kind in enumerate((
    "private_key", "aws_access_key", "github_token", "slack_token", "stripe_key", "credence_key", "anthropic_key",
    "openai_key", "google_api_key", "jwt", "aws_secret_key", "iban", "us_ssn", "card_number", "generic_secret",
    "password"))}
assert set(_PRIORITY) == set(SECRET_KINDS)


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def random_looking(value: str, min_chars: int = 12) -> bool:
    """Looks generated rather than written: long enough, letters and digits mixed (or both cases and
    a symbol), and a high character entropy. UUIDs, SHAs and version strings are kept out by the
    callers' contexts, not here."""
    if len(value) < min_chars:
        return False
    classes = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"\d", r"[^A-Za-z0-9]"))
    if not re.search(r"\d", value) and classes < 3:
        return False
    if not re.search(r"[A-Za-z]", value):
        return False
    return classes >= 2 and _entropy(value) >= 3.0


# A plain lower-case word after "password is" that reads as English rather than as a password.
_WORDY = re.compile(r"(?:ed|ing|ly|able|ible|ful|less|ive|ous|ment|ness|tion|sion)$")
_PREPOSITIONS = frozenset("in on at by to for from with under into inside behind via".split())


def _password_like(value: str) -> bool:
    """Letters with digits or symbols, or mixed case: what a bare "password X" must look like."""
    core = value.rstrip(".,;:!?")
    return bool(re.search(r"[A-Za-z]", core)) and bool(
        re.search(r"[^A-Za-z]", core) or (re.search(r"[a-z]", core) and re.search(r"[A-Z]", core[1:])))


def _password_value(value: str, prose: bool) -> bool:
    value = value.strip()
    if len(value) < (4 if prose else 3) or _PLACEHOLDER.match(value):
        return False
    # "the password is what you set", "is required", "was wrong": prose words, not a password
    return not prose or value.lower().rstrip(".,!?:;") not in _NOT_A_PASSWORD


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """A prose value without the sentence's trailing punctuation ("... is hunter2." -> hunter2)."""
    while end > start and text[end - 1] in ".,;:)]}\"'" and (end == len(text) or not text[end].isalnum()):
        end -= 1
    return start, end


def _card(digits: str) -> bool:
    if not 12 <= len(digits) <= 19 or not luhn.is_valid(digits) or len(set(digits)) < 2:
        return False
    for low, high, lengths in _CARD_NETWORKS:
        width = len(str(low))
        if low <= int(digits[:width]) <= high and len(digits) in lengths:
            return True
    return False


def _grouped(raw: str) -> bool:
    """One separator throughout, in groups of at least three digits (card numbers are printed in 4s;
    Amex 4-6-5), or none at all."""
    seps = set(re.findall(r"[ -]", raw))
    if len(seps) > 1:
        return False
    if not seps:
        return True
    return all(len(group) >= 3 for group in re.split(r"[ -]", raw)[:-1])


def find_secrets(text: str) -> list[Finding]:
    """Every secret in `text`, by kind and span [start, end), in order; overlaps go to the more
    specific kind (_PRIORITY)."""
    found: list[Finding] = []
    add = found.append
    for m in _PEM.finditer(text):
        add(Finding("private_key", m.start(), m.end()))
    for kind, pattern in _TOKENS:
        for m in pattern.finditer(text):
            if kind == "openai_key":
                body = m.group("body")
                if not (re.search(r"[a-z]", body) and re.search(r"[A-Z]", body) and re.search(r"\d", body)):
                    continue
                if m.group().startswith("sk-ant-"):
                    continue
            add(Finding(kind, m.start(), m.end()))
    for m in _AWS_SECRET.finditer(text):
        add(Finding("aws_secret_key", m.start("v"), m.end("v")))
    for pattern in (_GENERIC, _GENERIC_PROSE, _BEARER):
        for m in pattern.finditer(text):
            group = "qv" if "qv" in pattern.groupindex and m.group("qv") is not None else "v"
            value = m.group(group)
            start, end = _trim(text, m.start(group), m.end(group))
            if random_looking(text[start:end]) and not _PLACEHOLDER.match(value):
                add(Finding("generic_secret", start, end))
    for m in _PASSWORD_ASSIGN.finditer(text):
        group = "qv" if m.group("qv") is not None else "v"
        start, end = m.span(group)
        if group == "v":
            start, end = _trim(text, start, end)
        if _password_value(text[start:end], prose=False):
            add(Finding("password", start, end))
    for pattern in (_PASSWORD_PROSE, _PASSWORD_VERB, _PASSWORD_BARE):
        for m in pattern.finditer(text):
            group = next(g for g in ("v", "u", "l") if g in pattern.groupindex and m.group(g) is not None)
            start, end = _trim(text, *m.span(group))
            value = text[start:end]
            if not _password_value(value, prose=True):
                continue
            if pattern is _PASSWORD_BARE and not _password_like(value):
                continue
            if re.fullmatch(r"[a-z]+", value) and (_WORDY.search(value) or (
                    "after" in pattern.groupindex and m.group("after") and
                    m.group("after").strip().lower() in _PREPOSITIONS)):
                continue  # "was compromised", "is saved in": a sentence about the password, not one
            add(Finding("password", start, end))
    for m in _USER_SLASH.finditer(text):
        start, end = _trim(text, *m.span("v"))
        if _password_value(text[start:end], prose=True) and _password_like(text[start:end]):
            add(Finding("password", start, end))
    for m in _CLI_PASSWORD.finditer(text):
        if _password_value(m.group("v"), prose=False):
            add(Finding("password", m.start("v"), m.end("v")))
    for m in _URL_PASSWORD.finditer(text):
        if _password_value(m.group("v"), prose=False):
            add(Finding("password", m.start("v"), m.end("v")))
    for m in _DIGITS.finditer(text):
        raw = m.group()
        if _grouped(raw) and _card(re.sub(r"[ -]", "", raw)):
            add(Finding("card_number", m.start(), m.end()))
    for m in _SSN.finditer(text):
        if stdnum_ssn.is_valid(m.group().replace(" ", "-")):
            add(Finding("us_ssn", m.start(), m.end()))
    for m in _SSN_CONTEXT.finditer(text):
        if stdnum_ssn.is_valid(re.sub(r"[- ]", "", m.group("v"))):
            add(Finding("us_ssn", m.start("v"), m.end("v")))
    for m in _IBAN.finditer(text):
        span = _iban_span(m.group())
        if span:
            add(Finding("iban", m.start(), m.start() + span))
    return _resolve(found)


def _iban_span(candidate: str) -> int:
    """The longest prefix of `candidate` that is a valid IBAN (a trailing word may have been taken in)."""
    for end in range(len(candidate), 14, -1):
        if candidate[end - 1] in " -":
            continue
        if stdnum_iban.is_valid(candidate[:end].upper()):
            return end
    return 0


def _resolve(found: Iterable[Finding]) -> list[Finding]:
    """No two findings overlap: the more specific kind wins, then the longer span."""
    kept: list[Finding] = []
    for f in sorted(found, key=lambda f: (_PRIORITY[f.kind], -(f.end - f.start), f.start)):
        if all(f.end <= k.start or f.start >= k.end for k in kept):
            kept.append(f)
    return sorted(kept, key=lambda f: f.start)


def redact(text: str, findings: Iterable[Finding]) -> str:
    out, at = [], 0
    for f in sorted(findings, key=lambda f: f.start):
        out += [text[at:f.start], REDACTED.format(kind=f.kind)]
        at = f.end
    return "".join([*out, text[at:]])


# -- fields -------------------------------------------------------------------------------------------

_NAMED_PASSWORD = re.compile(r"(?i)^[\w.-]*" + _PASSWORD_NAME + r"[\w.-]*$")
_NAMED_SECRET = re.compile(r"(?i)^[\w .-]*" + _SECRET_NAME + r"[\w.-]*$")
_NOT_SECRET_NAMES = re.compile(r"(?i)(?:_?(?:count|len|length|type|kind|name|id|expir\w*|ttl|limit|usage|url|"
                               r"hint|policy|strength|min|max|enabled|required|set|updated\w*|created\w*|rotated\w*|"
                               r"at|ts|version)|tokens)$")


def screen_text(text: str, field: str, key: str | None = None) -> tuple[str, list[SecretSpan]]:
    """`text` with its secrets redacted, and their spans. `key`: the JSON key whose value this is:
    a password or secret name makes the whole value a finding (unless empty or a placeholder)."""
    findings = find_secrets(text)
    if key is not None and not findings and not _NOT_SECRET_NAMES.search(key) and text.strip():
        value = text.strip()
        start = text.index(value)
        if _NAMED_PASSWORD.match(key) and _password_value(value, prose=False):
            findings = [Finding("password", start, start + len(value))]
        elif _NAMED_SECRET.match(key) and (random_looking(value, 8)) and not _PLACEHOLDER.match(value):
            findings = [Finding("generic_secret", start, start + len(value))]
    if not findings:
        return text, []
    return redact(text, findings), [SecretSpan(field, f.kind, f.start, f.end) for f in findings]


def screen_json(value: Any, field: str, key: str | None = None) -> tuple[Any, list[SecretSpan]]:
    """Every string in a JSON value (metadata, an audit record's payload), keys giving context."""
    if isinstance(value, str):
        return screen_text(value, field, key)
    if isinstance(value, Mapping):
        spans: list[SecretSpan] = []
        out: dict[Any, Any] = {}
        predicate = value.get("predicate")
        for k, v in value.items():
            # A claim's value is named by its predicate: {"predicate": "wifi_password", "value": "..."}.
            context = predicate if k in ("value", "normalized_value") and isinstance(predicate, str) else str(k)
            out[k], found = screen_json(v, f"{field}.{k}", context)
            spans += found
        return (out, spans) if spans else (value, [])
    if isinstance(value, (list, tuple)):
        spans, items = [], []
        for i, v in enumerate(value):
            item, found = screen_json(v, f"{field}[{i}]", key)
            items.append(item)
            spans += found
        return (type(value)(items), spans) if spans else (value, [])
    return value, []


def check_mode(mode: Any, field: str = "secrets") -> str:
    if not isinstance(mode, str) or mode not in SECRET_MODES:
        raise InvalidInput(field, f"must be one of {', '.join(SECRET_MODES)}")
    return mode


def refuse(spans: list[SecretSpan], mode: str) -> None:
    """In refuse mode, any span refuses the write: SecretInInput names the first field and lists
    every span (kind and position, never the value)."""
    if mode != "refuse" or not spans:
        return
    listed = ", ".join(f"{s.kind} in {s.field} at characters {s.start}-{s.end}" for s in spans[:10])
    more = f" and {len(spans) - 10} more" if len(spans) > 10 else ""
    raise SecretInInput(spans[0].field, f"holds what looks like a secret ({listed}{more}); nothing was stored. "
                                        "Remove it, or send secrets=\"redact\" to store the text with each secret "
                                        "replaced by [REDACTED:<kind>]",
                        tuple({"field": s.field, "kind": s.kind, "start": s.start, "end": s.end} for s in spans))


def screen_new(item: NewMemory, where: str) -> tuple[NewMemory, list[SecretSpan]]:
    """A new memory with the secrets of its text, category, tags, metadata, claim, provenance
    reference and quarantine details redacted, and their spans; fields of the wrong type are left for
    check_new to name."""
    spans: list[SecretSpan] = []

    def text(value: Any, field: str) -> Any:
        if not isinstance(value, str):
            return value
        clean, found = screen_text(value, f"{where}{field}")
        spans.extend(found)
        return clean

    changes: dict[str, Any] = {"text": text(item.text, "text"), "category": text(item.category, "category"),
                               "suspicious": text(item.suspicious, "quarantine.details")}
    if isinstance(item.tags, (list, tuple)):
        changes["tags"] = tuple(text(tag, f"tags[{i}]") for i, tag in enumerate(item.tags))
    if isinstance(item.metadata, Mapping):
        changes["metadata"], found = screen_json(item.metadata, f"{where}metadata")
        spans += found
    if item.claim is not None:
        value = item.claim.value
        if isinstance(value, str):
            predicate = item.claim.predicate if isinstance(item.claim.predicate, str) else None
            value, found = screen_text(value, f"{where}claim.value", predicate)
            spans += found
        changes["claim"] = replace(item.claim, subject=text(item.claim.subject, "claim.subject"), value=value)
    changes["provenance"] = replace(item.provenance, ref=text(item.provenance.ref, "provenance.ref"))
    if not spans:
        return item, []
    return replace(item, **changes), spans


def screen_many(items: list[NewMemory], prefix: str) -> tuple[list[NewMemory], list[tuple[SecretSpan, ...]]]:
    """Each new memory as it will be stored, and the spans redacted from it. Items in refuse mode
    (the default) that hold a secret refuse the whole write at once, listing every finding of every
    item; items in redact mode come back redacted. `prefix` names the list ("memories"), or "" for
    a single memory."""
    out: list[NewMemory] = []
    redacted: list[tuple[SecretSpan, ...]] = []
    refused: list[SecretSpan] = []
    for i, item in enumerate(items):
        where = f"{prefix}[{i}]." if prefix else ""
        mode = check_mode(item.secrets, f"{where}secrets")
        clean, spans = screen_new(item, where)
        if mode == "refuse":
            refused += spans
            out.append(item)
            redacted.append(())
        else:
            out.append(clean)
            redacted.append(tuple(spans))
    refuse(refused, "refuse")
    return out, redacted


def screen_changes(patch: MemoryPatch) -> tuple[dict[str, Any], list[SecretSpan]]:
    """A patch's changes with the secrets of its text, category, tags and metadata redacted."""
    changes = patch.changes
    if not isinstance(changes, Mapping):
        return changes, []
    spans: list[SecretSpan] = []
    out = dict(changes)
    for name in ("text", "category"):
        if isinstance(changes.get(name), str):
            out[name], found = screen_text(changes[name], name)
            spans += found
    if isinstance(changes.get("tags"), (list, tuple)):
        out["tags"], found = screen_json(list(changes["tags"]), "tags")
        spans += found
    if isinstance(changes.get("metadata"), Mapping):
        out["metadata"], found = screen_json(changes["metadata"], "metadata")
        spans += found
    return out, spans
