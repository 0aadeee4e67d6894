#!/usr/bin/env python3
"""Compile the message catalog (gettext .po files) into C.

Usage: compile.py OUTPUT.c OUTPUT.h en.po LANG.po...

The first file is the reference (English): its msgctxt names the messages
(MSG_ALL_TAGS for "all-tags"). Every other file must have each of its
messages, with the same msgid, a non-empty msgstr for each of its plural
forms and the same {1}, {2} placeholders; a missing, extra or empty
message stops the build. A language's Plural-Forms expression (C syntax,
as gettext defines it) becomes its plural function.

Only the part of the .po syntax the catalog uses is read: comments,
msgctxt, msgid, msgid_plural, msgstr, msgstr[N] and continued strings.
"""
import re
import sys


def fail(where, msg):
    sys.exit(f'{where}: {msg}')


def unquote(where, s):
    if len(s) < 2 or s[0] != '"' or s[-1] != '"':
        fail(where, 'a string in double quotes was expected')
    out, i, s = [], 0, s[1:-1]
    esc = {'n': '\n', 't': '\t', '"': '"', '\\': '\\'}
    while i < len(s):
        c = s[i]
        if c == '\\':
            if i + 1 >= len(s) or s[i + 1] not in esc:
                fail(where, 'unknown escape')
            out.append(esc[s[i + 1]])
            i += 2
        elif c == '"':
            fail(where, 'unescaped quote')
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def read_po(path):
    """The entries of path: a list of dicts (ctxt, id, plural, str: list)."""
    entries, cur, field = [], None, None
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for n, line in enumerate(lines, 1):
        where = f'{path}:{n}'
        line = line.strip()
        if not line or line.startswith('#'):
            field = None if not line else field
            continue
        m = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d)\])?)\s+(".*")$', line)
        if m:
            key, idx, val = m.group(1), m.group(2), unquote(where, m.group(3))
            # an entry starts with its msgctxt, or its msgid when it has none
            if key == 'msgctxt' or (key == 'msgid' and (cur is None or 'id' in cur)):
                cur = {'line': where, 'str': []}
                entries.append(cur)
            if key in ('msgctxt', 'msgid', 'msgid_plural'):
                name = {'msgctxt': 'ctxt', 'msgid': 'id', 'msgid_plural': 'plural'}[key]
                if name in cur:
                    fail(where, f'a second {key}')
                cur[name] = val
                field = (name, None)
            else:
                k = int(idx) if idx is not None else 0
                if (idx is None) != ('plural' not in cur) or k != len(cur['str']):
                    fail(where, 'msgstr out of order')
                cur['str'].append(val)
                field = ('str', k)
        elif line.startswith('"') and field and cur is not None:
            val = unquote(where, line)
            if field[0] == 'str':
                cur['str'][field[1]] += val
            else:
                cur[field[0]] += val
        else:
            fail(where, 'not a line of a .po file')
    return entries


PLACEHOLDER = re.compile(r'\{\d\}')
PLURAL_EXPR = re.compile(r'^[n0-9%<>=!&|?: ()+-]+$')


def load(path):
    entries = read_po(path)
    if not entries or entries[0].get('id') != '' or 'ctxt' in entries[0]:
        fail(path, 'the header entry (msgid "") must come first')
    header = dict(l.split(': ', 1) for l in entries[0]['str'][0].split('\n') if ': ' in l)
    lang = header.get('Language')
    m = re.match(r'nplurals=(\d); plural=(.*);$', header.get('Plural-Forms', ''))
    if not lang or not re.match(r'^[a-z]{2,3}$', lang) or not m:
        fail(path, 'the header needs Language and Plural-Forms')
    if not PLURAL_EXPR.match(m.group(2)):
        fail(path, 'the plural expression is not the C subset gettext uses')
    msgs = {}
    for e in entries[1:]:
        if 'ctxt' not in e or not re.match(r'^[a-z][a-z0-9-]*$', e['ctxt']):
            fail(e['line'], 'each message needs a msgctxt name (lower case, digits, -)')
        if e['ctxt'] in msgs:
            fail(e['line'], f'message "{e["ctxt"]}" again')
        msgs[e['ctxt']] = e
    return lang, int(m.group(1)), m.group(2), msgs


def c_string(s):
    out = []
    for b in s.encode('utf-8'):
        c = chr(b)
        if c in '"\\':
            out.append('\\' + c)
        elif 0x20 <= b < 0x7f and c != '?':
            out.append(c)
        else:
            out.append(f'\\{b:03o}')
    return '"' + ''.join(out) + '"'


def main(argv):
    if len(argv) < 5:
        sys.exit('usage: compile.py OUTPUT.c OUTPUT.h en.po LANG.po...')
    out_c, out_h, paths = argv[1], argv[2], argv[3:]
    langs = [load(p) for p in paths]
    ref = langs[0][3]
    names = list(ref)
    for path, (lang, nplurals, _, msgs) in zip(paths, langs):
        for name in msgs:
            if name not in ref:
                fail(msgs[name]['line'], f'message "{name}" is not in {paths[0]}')
        for name in names:
            r, e = ref[name], msgs.get(name)
            if e is None:
                fail(path, f'message "{name}" is missing')
            if e['id'] != r['id'] or e.get('plural') != r.get('plural'):
                fail(e['line'], f'"{name}": msgid differs from {paths[0]}')
            want = nplurals if 'plural' in r else 1
            if len(e['str']) != want or not all(e['str']):
                fail(e['line'], f'"{name}": {want} non-empty msgstr expected')
            ph = sorted(set(PLACEHOLDER.findall(r['id'] + r.get('plural', ''))))
            for s in e['str']:
                if sorted(set(PLACEHOLDER.findall(s))) != ph:
                    fail(e['line'], f'"{name}": placeholders differ from the msgid\'s')
    enum = [('MSG_' + n.upper().replace('-', '_')) for n in names]
    base = paths[0].split('/')[-1]
    with open(out_h, 'w', encoding='ascii') as f:
        f.write(f'/* Generated by po/compile.py from the .po files: do not edit. */\n')
        f.write('#ifndef RL_MESSAGES_GEN_H\n#define RL_MESSAGES_GEN_H\n\n')
        f.write('enum rl_msg {\n')
        for e in enum:
            f.write(f'\t{e},\n')
        f.write('\tMSG_COUNT\n};\n\n#endif\n')
    with open(out_c, 'w', encoding='ascii') as f:
        f.write('/* Generated by po/compile.py from the .po files: do not edit. */\n')
        f.write('#include "msg.h"\n\n')
        for lang, nplurals, expr, msgs in langs:
            f.write(f'static unsigned long plural_{lang}(unsigned long n)\n{{\n'
                    f'\treturn (unsigned long)({expr});\n}}\n\n')
            f.write(f'static const char *const strings_{lang}[MSG_COUNT][MSG_FORMS] = {{\n')
            for name, e in zip(names, enum):
                forms = ', '.join(c_string(s) for s in msgs[name]['str'])
                f.write(f'\t[{e}] = {{ {forms} }},\n')
            f.write('};\n\n')
        f.write('const struct msg_lang msg_langs[] = {\n')
        for lang, nplurals, _, _ in langs:
            f.write(f'\t{{ "{lang}", {nplurals}, plural_{lang}, strings_{lang} }},\n')
        f.write('};\n')
        f.write(f'const size_t msg_nlangs = {len(langs)};\n\n')
        f.write('const struct msg_info msg_info[MSG_COUNT] = {\n')
        for name, e in zip(names, enum):
            f.write(f'\t[{e}] = {{ "{name}", {1 if "plural" in ref[name] else 0} }},\n')
        f.write('};\n')


if __name__ == '__main__':
    main(sys.argv)
