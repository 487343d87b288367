"""`crates report`: an HTML report of a `crates simulate` dataset.

Contract: a thin click command over crates_sim.analysis.report; --out as every command
takes it (an empty path refused).
"""

from __future__ import annotations

import click

from .options import out_option

__all__ = ["report"]


@click.command()
@click.argument("dataset", metavar="DIR", type=click.Path(file_okay=True, dir_okay=True))
@out_option(required=False, file=True,
            help="The HTML file to write (default DIR/report.html); PNGs and a .md go beside it.")
def report(dataset, out):
    """Write an HTML report of a `crates simulate` dataset.

    \b
    Sections: Overview, 3-hoarding, Pressures, Seat effects, Game flow. Figures are
    embedded in the HTML and also written as PNG files beside it, with a Markdown
    summary (FILE.md). Every number carries a 95% confidence interval.

    \b
    Examples:
      crates simulate --games 20000 --strategies hoard3,dump3,hoard3,dump3 --seed 1 --out runs/h
      crates report runs/h                       writes runs/h/report.html
      crates report runs/h --out reports/h.html  and reports/h-*.png, reports/h.md
    """
    from crates_sim.analysis.report import report as make_report

    paths = make_report(dataset, out)
    click.echo(f"report: {paths['html']}")
    click.echo(f"summary: {paths['markdown']}")
    click.echo(f"figures: {len(paths['figures'])} PNG files beside it")

