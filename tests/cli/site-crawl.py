#!/usr/bin/env python3
"""site-crawl.py — a crawl of an exported HTML site from its index.html,
independent of rulings: it reads the pages with Python's html.parser.

    python3 site-crawl.py SITE-DIRECTORY

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
"""
import html.parser
import os
import sys
import urllib.parse
from collections import Counter, deque


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.links = []          # (href, text, aria-label)
        self.headings = []
        self.rulings = 0
        self.lang = None
        self.entry_langs = Counter()
        self._a = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
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
        if self._a is not None:
            self._a[1] += data

    def handle_endtag(self, tag):
        if tag == 'a' and self._a is not None:
            self.links.append(tuple(self._a))
            self._a = None


def main():
    site = sys.argv[1]
    names = sorted(n for n in os.listdir(site) if n.endswith('.html'))
    pages = {}
    for n in names:
        p = Page()
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


if __name__ == '__main__':
    main()
