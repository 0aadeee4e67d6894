#!/usr/bin/env python3
"""gen_repeats.py -- one entry repeated, each time with another text.

A card FAQ (card-faq) or a glossary (rst-glossary) where one card, or one
term, appears again and again with a new answer each time: every repeat is
merged into the first entry (rl_entry_absorb, src/doc.c), its text added
as another paragraph unless the entry says it already.

Usage:
  bench/gen_repeats.py card-faq N > cards.rst       N repeats of card "C"
  bench/gen_repeats.py rst-glossary N > terms.rst   N repeats of term "Term."

Then, per build (results: bench/RESULTS.md):
  /usr/bin/time -f '%U s %M KB' BUILD/rulings parse --format FORMAT FILE >/dev/null
"""
import sys


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("card-faq", "rst-glossary"):
        sys.exit(__doc__)
    fmt, n = sys.argv[1], int(sys.argv[2])
    out = sys.stdout
    if fmt == "card-faq":
        out.write("FAQ\n===\n\n")
        for i in range(n):
            out.write(f"1.  C\n\n.. image:: ./c.png\n\nAnswer number {i} "
                      f"about the card.\n\n")
    else:
        out.write("Glossary\n========\n\n.. glossary::\n\n")
        for i in range(n):
            out.write(f"  **Term.**\n    Definition number {i} of the term."
                      f"\n\n")


if __name__ == "__main__":
    main()
