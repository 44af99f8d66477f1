"""The yardstick `skrya rank` is timed against: what a small standard-library script does with the
same provider results (score each result, merge copies by canonical URL, print best first), in the
manner of the original Search Layer script. Deliberately simple: no validation, no near-duplicate
matching, no provider-rank fusion. Usage: python3 rank_yardstick.py results.jsonl "query" WINDOW_END_ISO
"""
import json
import math
import re
import sys
from datetime import datetime, timezone
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

TRACKING = re.compile(r"^(utm_|hsa_|pk_|mtm_)|^(gclid|fbclid|msclkid|yclid|dclid|gbraid|wbraid|mc_cid|mc_eid|ref|ref_src|igshid|si|spm|_ga|_gl)$")
WORD = re.compile(r"[a-z0-9]+")


def canonical_url(url):
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname.rstrip(".")
    if host.startswith("www."):
        host = host[4:]
    if parts.port and parts.port not in (80, 443):
        host = f"{host}:{parts.port}"
    path = re.sub(r"/{2,}", "/", parts.path).rstrip("/")
    query = sorted((name, value) for name, value in parse_qsl(parts.query, keep_blank_values=False) if not TRACKING.match(name.lower()))
    return urlunsplit(("https", host, path, urlencode(query), ""))


def parse_date(text):
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def score(result, terms, window_end):
    words = set(WORD.findall(f"{result.get('title', '')} {result.get('snippet', '')}".lower()))
    coverage = sum(1 for term in terms if term in words) / len(terms) if terms else 0.0
    published = parse_date(result.get("published_date"))
    freshness = 0.0
    if published is not None:
        if published.tzinfo is None:
            published = published.replace(tzinfo=timezone.utc)
        age_days = max(0.0, (window_end - published).total_seconds() / 86400)
        freshness = math.exp(-age_days / 14)
    return round(0.6 * coverage + 0.4 * freshness, 6)


def main():
    path, query, window_end_text = sys.argv[1], sys.argv[2], sys.argv[3]
    terms = sorted(set(WORD.findall(query.lower())))
    window_end = parse_date(window_end_text)
    best = {}
    lines = 0
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            lines += 1
            result = json.loads(line)
            key = canonical_url(result.get("url", "")) or result.get("url", "")
            value = score(result, terms, window_end)
            kept = best.get(key)
            if kept is None:
                best[key] = [value, result, 1]
            else:
                kept[2] += 1
                if value > kept[0]:
                    kept[0], kept[1] = value, result
    ranked = sorted(best.items(), key=lambda entry: (-entry[1][0], entry[0]))
    out = sys.stdout
    for rank, (key, (value, result, copies)) in enumerate(ranked, 1):
        out.write(json.dumps({"rank": rank, "score": value, "canonical_url": key, "url": result.get("url"), "title": result.get("title"), "copies": copies}) + "\n")
    print(f"{lines} lines, {len(ranked)} documents", file=sys.stderr)


if __name__ == "__main__":
    main()
