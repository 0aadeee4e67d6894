#!/usr/bin/env python3
"""cr-encodings.py — writes the encoding variants of the comprehensive-rules
golden cases, byte for byte, from the UTF-8 originals:

    cases/cr-basic.txt            (UTF-8, LF; a decomposed "Déjà")
      cr-utf16be.txt              UTF-16BE with BOM, bare CR (a few CRLF),
                                  as CR-2022-11-18
      cr-utf16le.txt              UTF-16LE with BOM, CRLF
      cr-cp1252-crlf.txt          Windows-1252 (composed), CRLF, as
                                  CR-2022-10-07
      cr-bom-cr.txt               UTF-8 with BOM, bare CR (a few CRLF), as
                                  CR-2022-06-10 … 09-08 and CR-2026-01-16
      cr-bom-crlf.txt             UTF-8 with BOM, CRLF, as CR-2025-11-14
    cases/cr-duplicate-rule.txt
      cr-duplicate-rule-utf16le.txt   UTF-16LE with BOM, bare CR

and their NAME.same files (the records must be the original's).

    cd tests/golden && python3 cr-encodings.py
"""
import os
import unicodedata

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases"))


def crlf(s):
    return s.replace("\n", "\r\n")


def cr(s):
    return s.replace("\n", "\r")


def mostly_cr(s):
    """Bare CR, every tenth break (from the fourth) CRLF, as the 2022 files."""
    parts = s.split("\n")
    out = ""
    for i, p in enumerate(parts[:-1]):
        out += p + ("\r\n" if i % 10 == 3 else "\r")
    return out + parts[-1]


def write(name, data, same):
    with open(name + ".txt", "wb") as f:
        f.write(data)
    with open(name + ".same", "w") as f:
        f.write(same + "\n")


basic = open("cr-basic.txt", encoding="utf-8").read()
write("cr-utf16be", b"\xfe\xff" + mostly_cr(basic).encode("utf-16-be"), "cr-basic")
write("cr-utf16le", b"\xff\xfe" + crlf(basic).encode("utf-16-le"), "cr-basic")
cp = crlf(unicodedata.normalize("NFC", basic)).encode("cp1252")
try:
    cp.decode("utf-8")
    raise SystemExit("cr-cp1252-crlf.txt would be valid UTF-8")
except UnicodeDecodeError:
    pass
write("cr-cp1252-crlf", cp, "cr-basic")
write("cr-bom-cr", b"\xef\xbb\xbf" + mostly_cr(basic).encode("utf-8"), "cr-basic")
write("cr-bom-crlf", b"\xef\xbb\xbf" + crlf(basic).encode("utf-8"), "cr-basic")

dup = open("cr-duplicate-rule.txt", encoding="utf-8").read()
write("cr-duplicate-rule-utf16le", b"\xff\xfe" + cr(dup).encode("utf-16-le"),
      "cr-duplicate-rule")
