#!/usr/bin/env python3
"""site-crawl.py — a crawl of an exported HTML site from its index.html,
independent of rulings: it reads the pages with Python's html.parser.

    python3 site-crawl.py SITE-DIRECTORY [PO-DIRECTORY]

Prints one line per finding, "name: value", for the shell test to check:

    pages: N                 .html files in the directory
    reached: N               pages reached from index.html by following links
    max-clicks: N            the most clicks any reached page needs
    unreached: FILE          (each) a page no link leads to
    broken: FILE -> HREF     (each) a link to a missing page or anchor
    bare-hash: FILE          (each) a link whose whole text is "#" or empty
                             and that has no aria-label
    heading-skip: FILE hN hM (each) a heading more than one level below the
                             one before it (or a page not starting at h1)
    largest: N FILE          the largest page, in bytes
    rulings: N               elements that are a ruling: class "entry" or
                             "rule", a glossary term (dt with an id)
    lang: FILE PAGE MOST     (each) a page whose lang is not the language
                             of most of its entries (class "entry")
    english: FILE LANG TEXT  (each, with PO-DIRECTORY: the message catalog)
                             an English interface word (a message of
                             en.po) in an element whose language (its own
                             lang or its nearest ancestor's) is another of
                             the catalog's: a text, a part of one between
                             " \u00b7 ", ", ", " \u2014 ", "(", ")", or an
                             aria-label or title that is the message;
                             in an Atom feed (FILE.atom), the same in its
                             title, an entry's title (its kind before
                             ":"), category label and XHTML paragraphs
                             of the feed's xml:lang (or an element's own)
    interface: N             the texts checked for English words
"""
import html.parser
import importlib.util
import os
import re
import sys
import urllib.parse
import xml.etree.ElementTree as ET
from collections import Counter, deque


VOID = {'meta', 'link', 'br', 'img', 'input', 'hr', 'area', 'base', 'col',
        'embed', 'source', 'track', 'wbr'}
PARTS = re.compile('\u00b7|, |\u2014|[()]')


def english_patterns(po_dir):
    """For each language of the catalog but English: the English messages
    (as whole-text patterns, {N} any text) that differ from that
    language's (\"faq\" is French too)."""
    spec = importlib.util.spec_from_file_location(
        'po_compile', os.path.join(po_dir, 'compile.py'))
    po = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(po)
    _, _, _, en = po.load(os.path.join(po_dir, 'en.po'))
    out = {}
    for name in sorted(os.listdir(po_dir)):
        if not name.endswith('.po') or name == 'en.po':
            continue
        lang, _, _, msgs = po.load(os.path.join(po_dir, name))
        pats = []
        for key, e in en.items():
            for s in (e['id'], e.get('plural')):
                if not s or s in msgs[key]['str']:
                    continue
                for part in PARTS.split(s):
                    part = part.strip(' :,')
                    if re.search('[A-Za-z]{2}', re.sub(r'\{\d\}', '', part)):
                        pats.append(re.compile(
                            '.+'.join(re.escape(x) for x in re.split(r'\{\d\}', part)) + '$'))
        out[lang] = pats
    return out


class Page(html.parser.HTMLParser):
    def __init__(self, patterns=None):
        super().__init__(convert_charrefs=True)
        self.patterns = patterns or {}
        self.stack = []          # (tag, lang) of the open elements
        self.english = []        # (lang, text)
        self.checked = 0
        self.ids = set()
        self.links = []          # (href, text, aria-label)
        self.headings = []
        self.rulings = 0
        self.lang = None
        self.entry_langs = Counter()
        self._a = None

    def lang_now(self):
        for _, lang in reversed(self.stack):
            if lang:
                return lang
        return None

    def check(self, text):
        pats = self.patterns.get(self.lang_now())
        if not pats:
            return
        for part in PARTS.split(text):
            part = part.strip(' :,\n')
            if not part:
                continue
            self.checked += 1
            if any(p.match(part) for p in pats):
                self.english.append((self.lang_now(), part))

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in VOID:
            self.stack.append((tag, a.get('lang')))
        for k in ('aria-label', 'title'):
            if k in a:
                if tag in VOID:
                    self.stack.append((tag, a.get('lang')))
                self.check(a[k])
                if tag in VOID:
                    self.stack.pop()
        if 'id' in a:
            self.ids.add(a['id'])
        if tag == 'html':
            self.lang = a.get('lang')
        cls = (a.get('class') or '').split()
        if tag == 'div' and 'entry' in cls:
            self.entry_langs[a.get('lang')] += 1
        if (tag == 'div' and ('entry' in cls or 'rule' in cls)) or \
           (tag == 'dt' and 'id' in a):
            self.rulings += 1
        if tag in ('h1', 'h2', 'h3', 'h4', 'h5', 'h6'):
            self.headings.append(int(tag[1]))
        if tag == 'a' and 'href' in a:
            self._a = [a['href'], '', a.get('aria-label')]

    def handle_data(self, data):
        if self.stack and self.stack[-1][0] != 'style':
            self.check(data)
        if self._a is not None:
            self._a[1] += data

    def handle_endtag(self, tag):
        while self.stack and tag not in VOID:
            if self.stack.pop()[0] == tag:
                break
        if tag == 'a' and self._a is not None:
            self.links.append(tuple(self._a))
            self._a = None


ATOM = '{http://www.w3.org/2005/Atom}'
XHTML = '{http://www.w3.org/1999/xhtml}'
XML_LANG = '{http://www.w3.org/XML/1998/namespace}lang'


def feed_words(path, patterns):
    """The English interface words of an Atom feed, and the texts checked:
    its title, each entry's title (the part before its ": "; an XHTML
    title part by part, each in its span's language), category
    label and XHTML paragraphs, each in its language (xml:lang, inherited)."""
    checker = Page(patterns)
    root = ET.parse(path).getroot()

    def walk(el, lang):
        lang = el.get(XML_LANG, lang)
        checker.stack = [('feed', lang)]
        if el.tag == ATOM + 'title' and el.get('type') == 'xhtml':
            # an entry's title with its ruling's words in a span of their
            # own language: each part in its language
            for div in el:
                parts = [(div.text, lang)]
                for span in div:
                    parts += [(''.join(span.itertext()),
                               span.get(XML_LANG, lang)), (span.tail, lang)]
                for t, l in parts:
                    if t:
                        checker.stack = [('feed', l)]
                        checker.check(t)
            checker.stack = [('feed', lang)]
            return
        if el.tag == ATOM + 'title' and el.text:
            checker.check(el.text)
            checker.check(re.split(' ?: ', el.text, maxsplit=1)[0])
        elif el.tag == ATOM + 'category' and el.get('label'):
            checker.check(el.get('label'))
        elif el.tag == XHTML + 'p':
            checker.check(''.join(el.itertext()))
        for child in el:
            walk(child, lang)
    walk(root, None)
    return checker


def main():
    site = sys.argv[1]
    patterns = english_patterns(sys.argv[2]) if len(sys.argv) > 2 else None
    names = sorted(n for n in os.listdir(site) if n.endswith('.html'))
    pages = {}
    for n in names:
        p = Page(patterns)
        with open(os.path.join(site, n), encoding='utf-8') as f:
            p.feed(f.read())
        pages[n] = p
    print('pages: %d' % len(names))
    depth = {'index.html': 0}
    todo = deque(['index.html'])
    while todo:
        n = todo.popleft()
        for href, _, _ in pages[n].links:
            u = urllib.parse.urlsplit(href)
            if u.scheme or u.netloc or not u.path:
                continue
            t = urllib.parse.unquote(u.path)
            if t in pages and t not in depth:
                depth[t] = depth[n] + 1
                todo.append(t)
    print('reached: %d' % len(depth))
    print('max-clicks: %d' % max(depth.values()))
    for n in names:
        if n not in depth:
            print('unreached: %s' % n)
    total = 0
    for n in names:
        p = pages[n]
        total += p.rulings
        for href, text, label in p.links:
            u = urllib.parse.urlsplit(href)
            if u.scheme or u.netloc:
                continue
            t = urllib.parse.unquote(u.path) if u.path else n
            frag = urllib.parse.unquote(u.fragment)
            if t not in pages or (frag and frag not in pages[t].ids):
                print('broken: %s -> %s' % (n, href))
            if text.strip() in ('', '#') and not label:
                print('bare-hash: %s' % n)
        if p.entry_langs:
            top = max(p.entry_langs.values())
            most = sorted(l or '' for l, c in p.entry_langs.items() if c == top)
            if p.lang not in most:
                print('lang: %s %s %s' % (n, p.lang, '/'.join(most)))
        prev = 0
        for h in p.headings:
            if h > prev + 1:
                print('heading-skip: %s h%d h%d' % (n, prev, h))
            prev = h
    size, big = max((os.path.getsize(os.path.join(site, n)), n) for n in names)
    print('largest: %d %s' % (size, big))
    print('rulings: %d' % total)
    if patterns is not None:
        for n in names:
            for lang, text in pages[n].english:
                print('english: %s %s %s' % (n, lang, text))
        checked = sum(p.checked for p in pages.values())
        for n in sorted(n for n in os.listdir(site) if n.endswith('.atom')):
            c = feed_words(os.path.join(site, n), patterns)
            checked += c.checked
            for lang, text in c.english:
                print('english: %s %s %s' % (n, lang, text))
        print('interface: %d' % checked)


if __name__ == '__main__':
    main()
