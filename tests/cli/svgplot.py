#!/usr/bin/env python3
"""svgplot.py text|xtics|ytics|lines FILE: what a gnuplot SVG chart shows, as text a test can grep.

text:  every text element (labels, tics, key entries, the title), one per line.
xtics, ytics: the tic labels of the bottom or the left axis (of every panel), one per line.
lines: one line per plotted element (gnuplot's gnuplot_plot_* groups), tab-separated:
       its id, its key entry ("-" without one), the point shapes it uses, its dash
       pattern ("solid" without one), its colour, and how many points it draws (the
       key's sample included).
joins: the width of the widest stroke drawn by a plotted element (each subpath from its
       moveto), then the smallest distance between two adjacent x tic labels, tab-separated:
       a line joining two categories is at least as wide as that distance.
"""
import re
import sys
import xml.etree.ElementTree as ET

SVG = '{http://www.w3.org/2000/svg}'
XLINK = '{http://www.w3.org/1999/xlink}'


def texts(node):
    return [t.text or '' for t in node.iter(SVG + 'text')]


def tics(root, anchor):
    """Text outside the plotted elements, centred (x tics) or right-aligned (y tics), that is
    a number: gnuplot writes tic labels so, and labels and titles are not numbers."""
    plotted = {id(t) for g in root.iter(SVG + 'g') if g.get('id', '').startswith('gnuplot_plot_')
               for t in g.iter(SVG + 'text')}
    for g in root.iter(SVG + 'g'):
        if g.get('text-anchor') != anchor:
            continue
        for t in g.findall(SVG + 'text'):
            try:
                float(t.text)
            except (TypeError, ValueError):
                continue
            if id(t) not in plotted:
                yield t.text.strip()


def lines(root):
    for g in root.iter(SVG + 'g'):
        gid = g.get('id', '')
        if not gid.startswith('gnuplot_plot_'):
            continue
        key = texts(g)
        # points with error bars sit on a white disc of their own (gnuplot's backing): not a point
        uses = [u for u in g.iter(SVG + 'use') if (u.get('color') or '').upper() != '#FFFFFF']
        paths = list(g.iter(SVG + 'path'))
        shapes = sorted({u.get(XLINK + 'href', '') for u in uses}) or ['-']
        dashes = sorted({p.get('stroke-dasharray') or 'solid' for p in paths}) or ['-']
        colour = uses[0].get('color') if uses else paths[0].get('stroke') if paths else '-'
        yield '\t'.join([gid, key[0] if key else '-', ','.join(shapes), ','.join(dashes),
                         (colour or '-').replace(' ', ''), str(len(uses))])


def subpath_widths(root):
    for g in root.iter(SVG + 'g'):
        if not g.get('id', '').startswith('gnuplot_plot_'):
            continue
        for p in g.iter(SVG + 'path'):
            for sub in re.split(r'(?=M)', p.get('d', '')):
                xs = [float(x) for x, _ in re.findall(r'(-?[\d.]+),(-?[\d.]+)', sub)]
                if xs:
                    yield max(xs) - min(xs)


def joins(root):
    centred = [g for g in root.iter(SVG + 'g') if g.get('text-anchor') == 'middle'
               and g.findall(SVG + 'text') and 'translate(' in (g.get('transform') or '')]
    xs = sorted(float(re.search(r'translate\((-?[\d.]+),', g.get('transform')).group(1))
                for g in centred)
    gaps = [b - a for a, b in zip(xs, xs[1:]) if b - a > 1]
    yield '%.1f\t%.1f' % (max(subpath_widths(root), default=0), min(gaps, default=0))


def main():
    what, path = sys.argv[1], sys.argv[2]
    root = ET.parse(path).getroot()
    out = {'text': lambda: texts(root), 'xtics': lambda: tics(root, 'middle'),
           'ytics': lambda: tics(root, 'end'), 'lines': lambda: lines(root),
           'joins': lambda: joins(root)}[what]()
    for line in out:
        print(line)


if __name__ == '__main__':
    main()
