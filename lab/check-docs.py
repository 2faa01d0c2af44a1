#!/usr/bin/env python3
"""Checks the repository's markdown: every relative link resolves (files and
#anchors, GitHub's heading slugs), and the README and docs/ name no commit
hash (a run of 7 or more hex digits), tracker reference or path outside the
repository. Run from anywhere: python3 lab/check-docs.py"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP_DIRS = {".git", "target", "node_modules", "fuzz-inputs", "corpus", "artifacts"}

def md_files():
    for d, dirs, files in os.walk(ROOT):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS]
        for f in files:
            if f.endswith(".md"):
                yield os.path.join(d, f)

def strip_code(text):
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)

def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")

_anchors = {}
def anchors(path):
    if path not in _anchors:
        text = open(path, encoding="utf-8").read()
        text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)
        seen, out = {}, set()
        for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, flags=re.M):
            h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1)).replace("`", "")
            s = slug(h)
            n = seen.get(s, 0)
            out.add(s if n == 0 else f"{s}-{n}")
            seen[s] = n + 1
        out |= set(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", text))
        _anchors[path] = out
    return _anchors[path]

LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)", re.M)
bad = 0
for path in sorted(md_files()):
    rel = os.path.relpath(path, ROOT)
    text = strip_code(open(path, encoding="utf-8").read())
    for m in LINK.finditer(text):
        target = m.group(1) or m.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue
        file_part, _, frag = target.partition("#")
        dest = path if not file_part else os.path.normpath(os.path.join(os.path.dirname(path), file_part))
        if not dest.startswith(ROOT + os.sep) and dest != ROOT:
            print(f"{rel}: link leaves the repository: {target}"); bad += 1; continue
        if not os.path.exists(dest):
            print(f"{rel}: broken link: {target}"); bad += 1; continue
        if frag and dest.endswith(".md") and frag not in anchors(dest):
            print(f"{rel}: missing anchor: {target}"); bad += 1

user_docs = [os.path.join(ROOT, "README.md")] + [
    os.path.join(ROOT, "docs", f) for f in sorted(os.listdir(os.path.join(ROOT, "docs"))) if f.endswith(".md")]
CHECKS = [
    (r"(?<![0-9A-Za-z])[0-9a-fA-F]{7,}(?![0-9A-Za-z])", "hex run (commit hash?)"),
    (r"\.\./shared|/work/|/home/|/root/", "path outside the repository"),
    (r"\bthe issue\b|\bissue #?\d+|#\d{1,4}\b|\bissues?\b", "tracker reference"),
]
for path in user_docs:
    rel = os.path.relpath(path, ROOT)
    for i, line in enumerate(open(path, encoding="utf-8"), 1):
        for pat, what in CHECKS:
            for m in re.finditer(pat, line, flags=re.I if "issue" in pat else 0):
                print(f"{rel}:{i}: {what}: {m.group(0)!r}"); bad += 1

print(f"{bad} problem(s)")
sys.exit(1 if bad else 0)
