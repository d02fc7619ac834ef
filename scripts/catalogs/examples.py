#!/usr/bin/env python3
"""examples.py — the example catalogs of real public APIs, and a corpus of responses for each.

  python3 scripts/catalogs/examples.py PUBLISHED_DIR [OUT_DIR]

PUBLISHED_DIR holds the code lists their owners publish (google-canonical-codes.json,
google-errorinfo-reasons.json, slack-common-errors.json, stripe-error-codes.json,
stripe-decline-codes.json; each names its sources). OUT_DIR (default catalog/examples) gets, for
each of google, slack, stripe and problem-details, NAME.json (a swifterr-catalog/3 catalog: the
codes, their string codes and namespaces, flags where the owner's list says retry or
re-authenticate, and the backend's shapes) and NAME.jsonl (response bodies in those shapes: listed
codes, codes a module owns but the catalog does not list, codes of no module, successes).
Only facts are taken: code names, numbers, domains and the retry and re-authenticate groups; the
messages are the code names in words. The output is committed; rerun this after the lists change.
"""

import json
import os
import sys


def camel(code):
    """UPPER_SNAKE or lower_snake or kebab → lowerCamel identifier."""
    words = [w for w in code.replace("-", "_").split("_") if w]
    name = words[0].lower() + "".join(w[:1].upper() + w[1:].lower() for w in words[1:])
    return name if name[:1].isalpha() else "code" + name


def words(code):
    text = code.replace("_", " ").replace("-", " ").lower().strip()
    return text[:1].upper() + text[1:] + "."


def entry(code, string, namespace=None, flags=(), name=None):
    result = {"code": code, "name": name or camel(string), "string": string}
    if namespace is not None:
        result["namespace"] = namespace
    if flags:
        result["flags"] = list(flags)
    result["message"] = {"en": words(string)}
    return result


def catalog(name, shapes, success, base, modules):
    return {"format": "swifterr-catalog/3", "name": name, "languages": ["en"], "shapes": shapes,
            "success": success, "base": base, "modules": modules}


def google(src):
    canonical = json.load(open(os.path.join(src, "google-canonical-codes.json")))["codes"]
    reasons = json.load(open(os.path.join(src, "google-errorinfo-reasons.json")))
    info = {"@type": "type.googleapis.com/google.rpc.ErrorInfo"}
    shapes = [
        {"name": "aip193", "code": {"path": ["error", "details", info, "reason"]},
         "fallbackCodes": [{"path": ["error", "status"]}], "codeType": "string",
         "namespace": {"path": ["error", "details", info, "domain"]},
         "secondary": {"path": ["error", "status"]}, "message": {"path": ["error", "message"]},
         "payload": {"path": ["error", "details"]}, "failure": {"present": {"path": ["error"]}}},
        {"name": "grpc", "kind": "grpc"},
    ]
    codes = []
    for code in canonical:
        if code["number"] == 0:
            continue
        flags = []
        if code["aip194_retry"] == "retry":
            flags.append("retryable")
        if code["name"] == "UNAUTHENTICATED":
            flags.append("reauthenticate")
        codes.append(entry(code["number"], code["name"], flags=flags))
    reauth = set(reasons["reauth"])
    domain = reasons["domain"]
    googleapis = [entry(1000 + r["number"], r["reason"], flags=["reauthenticate"] if r["reason"] in reauth else [])
                  for r in reasons["reasons"]]
    ok = next(c for c in canonical if c["number"] == 0)
    definition = catalog(
        "google", shapes, entry(0, ok["name"], name="ok"), [],
        [{"name": "canonical", "title": {"en": "Canonical codes"}, "ranges": [[1, 16]], "codes": codes},
         {"name": "googleapis", "title": {"en": "googleapis.com"}, "ranges": [[1001, 1999]], "namespaces": [domain],
          "codes": googleapis}])

    def failure(http, status, reason, reason_domain, message, help_first=False):
        details = [{"@type": info["@type"], "reason": reason, "domain": reason_domain,
                    "metadata": {"service": "example.googleapis.com"}}]
        if help_first:
            details.insert(0, {"@type": "type.googleapis.com/google.rpc.Help", "links": []})
        return {"error": {"code": http, "message": message, "status": status, "details": details}}

    by_number = {c["number"]: c for c in canonical}
    lines = []
    for r in reasons["reasons"]:
        status = by_number[16] if r["reason"] in reauth else by_number[7]
        lines.append(failure(status["http"], status["name"], r["reason"], domain, words(r["reason"]),
                             help_first=r["number"] % 3 == 0))
    lines += [
        failure(429, "RESOURCE_EXHAUSTED", "NEW_REASON_NOT_LISTED", domain, "A reason this list predates."),
        failure(503, "UNAVAILABLE", "RESOURCE_AVAILABILITY", "compute.googleapis.com", "Another domain's reason."),
        {"name": "projects/example/topics/t", "labels": {}},
        {"error": {"code": 500, "message": "No ErrorInfo", "status": "INTERNAL"}},
    ]
    return definition, lines


def slack(src):
    facts = json.load(open(os.path.join(src, "slack-common-errors.json")))
    reauth = set(facts["reauth"])
    retryable = set(facts["retryable"])
    base = []
    for number, code in enumerate(facts["codes"], start=1):
        flags = (["retryable"] if code in retryable else []) + (["reauthenticate"] if code in reauth else [])
        base.append(entry(number, code, flags=flags))
    chat = [entry(1000 + n, code) for n, code in enumerate(sorted(facts["method_specific_examples_used_in_corpus"]), 1)]
    shapes = [{"name": "slack", "code": {"path": ["error"]}, "codeType": "string",
               "failure": {"flag": {"path": ["ok"]}, "failsWhen": False}}]
    definition = catalog("slack", shapes, entry(0, "ok", name="ok"), base,
                         [{"name": "chat", "title": {"en": "Chat"}, "ranges": [[1000, 1999]], "codes": chat}])
    lines = [{"ok": False, "error": code} for code in facts["codes"]]
    lines += [{"ok": False, "error": code} for code in sorted(facts["method_specific_examples_used_in_corpus"])]
    lines += [
        {"ok": False, "error": "invalid_auth", "warning": "missing_charset",
         "response_metadata": {"warnings": ["missing_charset"]}},
        {"ok": False, "error": "not_a_listed_error"},
        {"ok": True, "channel": "C123", "ts": "1503435956.000247"},
        {"ok": True, "warning": "superfluous_charset"},
    ]
    return definition, lines


def stripe(src):
    facts = json.load(open(os.path.join(src, "stripe-error-codes.json")))
    declines = json.load(open(os.path.join(src, "stripe-decline-codes.json")))
    retryable = set(facts["retryable"])
    reauth = {code for code in facts["reauth"] if not code.startswith("(")}
    base = []
    for number, code in enumerate(facts["codes"], start=1):
        flags = (["retryable"] if code in retryable else []) + (["reauthenticate"] if code in reauth else [])
        base.append(entry(number, code, flags=flags))
    decline_retryable = set(declines["retryable"])
    decline = [entry(1000 + n, code, flags=["retryable"] if code in decline_retryable else [])
               for n, code in enumerate(declines["codes"], start=1)]
    shapes = [{"name": "stripe", "code": {"path": ["error", "code"]}, "codeType": "string",
               "secondary": {"path": ["error", "decline_code"]}, "message": {"path": ["error", "message"]},
               "payload": {"path": ["error"]}, "failure": {"present": {"path": ["error"]}}}]
    definition = catalog(
        "stripe", shapes, entry(0, "ok", name="ok"), base,
        [{"name": "decline", "title": {"en": "Card declines"}, "ranges": [[1000, 1999]],
          "namespaces": ["decline_code"], "codes": decline}])
    lines = []
    for number, code in enumerate(facts["codes"]):
        kind = "card_error" if code in ("card_declined", "expired_card", "incorrect_cvc") else "invalid_request_error"
        body = {"error": {"type": kind, "code": code, "message": words(code)}}
        if code == "card_declined":
            body["error"]["decline_code"] = declines["codes"][number % len(declines["codes"])]
        lines.append(body)
    lines += [
        {"error": {"type": "invalid_request_error", "message": "Invalid API Key provided."}},
        {"error": {"type": "api_error", "code": "not_a_listed_code", "message": "Unlisted."}},
        {"id": "ch_1", "object": "charge", "amount": 2000},
    ]
    return definition, lines


def problem_details(_src):
    shapes = [{"name": "problem", "contentType": "application/problem+json", "code": {"path": ["type"]},
               "codeType": "string", "defaultCode": "about:blank", "namespace": "codePrefix",
               "message": {"path": ["detail"]}, "failure": "status"}]
    definition = catalog(
        "problemDetails", shapes, entry(0, "ok", name="ok"), [entry(1, "about:blank", name="aboutBlank")],
        [{"name": "probs", "title": {"en": "example.com problems"}, "ranges": [[100, 199]],
          "namespaces": ["https://example.com/probs/"], "codes": [entry(101, "out-of-credit")]},
         {"name": "validation", "title": {"en": "example.net problems"}, "ranges": [[200, 299]],
          "namespaces": ["https://example.net/"], "codes": [entry(201, "validation-error")]}])
    lines = [
        {"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.",
         "detail": "Your current balance is 30, but that costs 50.", "instance": "/account/12345/msgs/abc",
         "balance": 30, "accounts": ["/account/12345", "/account/67890"]},
        {"type": "https://example.net/validation-error", "title": "Your request is not valid.",
         "errors": [{"detail": "must be a positive integer", "pointer": "#/age"}]},
        {"type": "https://example.com/probs/cannot-withdraw", "title": "Not listed."},
        {"type": "https://example.org/other", "title": "No module owns this."},
        {"type": "about:blank", "title": "Not Found", "status": 404},
        {"balance": 80},
    ]
    return definition, lines


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    src = argv[1]
    out = argv[2] if len(argv) > 2 else "catalog/examples"
    os.makedirs(out, exist_ok=True)
    for name, build in [("google", google), ("slack", slack), ("stripe", stripe), ("problem-details", problem_details)]:
        definition, lines = build(src)
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(definition, f, indent=2, ensure_ascii=False)
            f.write("\n")
        with open(os.path.join(out, name + ".jsonl"), "w") as f:
            for line in lines:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
        print(f"{out}/{name}.json: {sum(1 for _ in lines)} corpus lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
