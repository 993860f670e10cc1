"""`--plot FILE`: the balance figures as pictures, for a designer's docs page rather than a terminal.

Three panels a picture: how long games last (by how they ended), who wins (by seat, with 95%
intervals, against an even share), and wealth over the game (the median cash of the richest,
second... poorest player, turn by turn). `diff` sets the variant beside the base for lengths and
wins, and draws wealth as what the pairs show: the variant's cash minus the base's on the same seed,
rank by rank, its mean with a 95% band (two curves overlaid read as a difference where there is
none); `sweep` draws each figure against the swept parameter, with its interval as a band. Every
legend sits below its panel, outside the data it would otherwise cover.

matplotlib is imported only here, and this module only when `--plot` is given; the Agg backend
draws without a display. The format comes from the file's name (.png, .svg, .pdf). SVG and PDF
carry no date, so the same games draw the same file.
"""

from __future__ import annotations

import math
import statistics
from pathlib import Path

from .balance import TURN_LIMIT

FORMATS = (".png", ".svg", ".pdf")
# Okabe and Ito's palette: told apart by colour-blind readers, and in grey.
COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
BASE, VARIANT = "#0072B2", "#D55E00"
LIVE_SHARE = 0.25  # wealth over the game is drawn while at least this share of the games is still going


def plot_format_error(path: str) -> str | None:
    """Why `path` cannot be a picture's name, or None."""
    if Path(path).suffix.lower() not in FORMATS:
        return f"--plot `{path}`: name a .png, .svg or .pdf file"
    return None


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({
        "font.size": 9, "axes.titlesize": 10, "axes.titleweight": "bold", "axes.spines.top": False,
        "axes.spines.right": False, "axes.grid": True, "grid.color": "#e4e4e4", "grid.linewidth": 0.6,
        "axes.axisbelow": True, "legend.frameon": False, "figure.dpi": 110, "savefig.dpi": 150,
        "svg.hashsalt": "rulesc",  # the same ids in every SVG of the same picture
        "text.parse_math": False,  # "$500 to $2,000" is money, not mathematics
    })
    return plt


def save(figure, path: str) -> None:
    figure.savefig(path, bbox_inches="tight", metadata={"Date": None} if Path(path).suffix.lower() != ".png" else {})
    import matplotlib.pyplot as plt
    plt.close(figure)


# ---- the panels ------------------------------------------------------------------------------------------

def _legend_below(ax, ncol: int = 2, fontsize: int = 8) -> None:
    """The panel's legend under its x axis' label: outside the data area, where it covers nothing."""
    ax.legend(fontsize=fontsize, ncol=ncol, loc="upper center", bbox_to_anchor=(0.5, -0.2), borderaxespad=0)


def _rank(k: int, ranks: int) -> str:
    return "richest" if k == 0 else "poorest" if k == ranks - 1 else \
        f"{k + 1}{'nd' if k == 1 else 'rd' if k == 2 else 'th'}"


def _lengths(ax, sides: list) -> None:
    """Histogram of game lengths. One side: stacked by end reason; two: base filled, variant outlined."""
    everything = [g.turns for _, records, _ in sides for g in records]
    top = max(everything) if everything else 1
    bins = _bins(top)
    if len(sides) == 1:
        _, records, _ = sides[0]
        reasons = sorted({g.reason for g in records}, key=lambda r: (r == TURN_LIMIT, r))
        stacks = [[g.turns for g in records if g.reason == r] for r in reasons]
        colours = ["#999999" if r == TURN_LIMIT else COLOURS[i % len(COLOURS)] for i, r in enumerate(reasons)]
        labels = [f"{r} ({len(s)})" for r, s in zip(reasons, stacks)]
        ax.hist(stacks, bins=bins, stacked=True, color=colours, label=labels, edgecolor="white", linewidth=0.4)
        mean = statistics.fmean(g.turns for g in records) if records else 0
        ax.axvline(mean, color="#333333", linewidth=1, linestyle="--", label=f"mean {mean:.1f}")
    else:
        for (label, records, colour), style in zip(sides, ("filled", "step")):
            turns = [g.turns for g in records]
            mean = statistics.fmean(turns) if turns else 0
            if style == "filled":
                ax.hist(turns, bins=bins, color=colour, alpha=0.35, label=f"{label} (mean {mean:.1f})")
            else:
                ax.hist(turns, bins=bins, histtype="step", color=colour, linewidth=1.6,
                        label=f"{label} (mean {mean:.1f})")
            ax.axvline(mean, color=colour, linewidth=1, linestyle="--")
    limits = [g.turns for _, records, _ in sides for g in records if g.reason == TURN_LIMIT]
    if limits:
        ax.annotate("turn limit", (max(limits), 0.5), xycoords=("data", "axes fraction"), rotation=90,
                    fontsize=8, color="#777777", ha="right", va="center", xytext=(-4, 0), textcoords="offset points")
    ax.set_title("How long games last")
    ax.set_xlabel("turns per game")
    ax.set_ylabel("games")
    _legend_below(ax)


def _bins(top: int) -> list:
    width = max(1, -(-top // 40))
    return list(range(0, top + width + 1, width))


def _wins(ax, sides: list, players: int) -> None:
    """Wins by seat (and by position in the turn order where it differs), with their intervals."""
    from . import stats
    groups = [("seat", lambda g, s: g.winner == s)]
    if any(g.first != 1 for _, records, _ in sides for g in records):
        groups.append(("position", lambda g, s: g.position == s))
    width = 0.8 / (len(sides) * len(groups))
    offset = 0
    for group, test in groups:
        for label, records, colour in sides:
            shares = [stats.wilson(sum(1 for g in records if test(g, s)), len(records)) for s in range(1, players + 1)]
            xs = [s + (offset - (len(sides) * len(groups) - 1) / 2) * width for s in range(1, players + 1)]
            values = [100 * i.value for i in shares]
            errors = _error_bars(shares)
            name = label if group == "seat" else f"{label}, turn order"
            if len(sides) == 1:
                name = "by seat" if group == "seat" else "by position in the turn order"
            ax.bar(xs, values, width * 0.92, yerr=errors, capsize=2.5, color=colour,
                   alpha=1.0 if group == "seat" else 0.45, label=name, error_kw={"linewidth": 0.9})
            offset += 1
    for label, records, colour in sides:  # an even share of the games with a winner, each side its own
        decided = sum(1 for g in records if g.winner is not None) / len(records) if records else 0
        even = 100 * decided / players if players else 0
        name = f"even share ({even:.1f}%)" if len(sides) == 1 else f"even, {label} ({even:.1f}%)"
        ax.axhline(even, color="#333333" if len(sides) == 1 else colour, linewidth=0.9, linestyle="--", label=name)
    ax.set_xticks(range(1, players + 1))
    ax.set_xticklabels([str(s) for s in range(1, players + 1)])
    ax.set_title("Who wins (95% intervals)")
    ax.set_xlabel("seat" if len(groups) == 1 else "seat, or position in the turn order")
    ax.set_ylabel("% of games won")
    ax.set_ylim(bottom=0)
    _legend_below(ax, fontsize=8 if len(sides) == 1 else 7)


def _error_bars(shares: list) -> list:
    """Wilson intervals as error bars in points (a share of 0 may sit a rounding error below its low end)."""
    return [[max(0.0, 100 * (i.value - i.low)) for i in shares], [max(0.0, 100 * (i.high - i.value)) for i in shares]]


def _wealth_by_rank(records: list) -> tuple[list, list]:
    """(turns, [median cash of the richest player, the 2nd, ..., the poorest]) over the games still going,
    for as long as at least LIVE_SHARE of the games are."""
    at: dict = {}
    for g in records:
        for turn, cash in g.wealth or ():
            at.setdefault(turn, []).append(sorted(cash, reverse=True))
    enough = max(1, int(LIVE_SHARE * len(records)))
    turns = sorted(t for t, rows in at.items() if len(rows) >= enough)
    ranks = len(records[0].cash) if records else 0
    lines = [[statistics.median(row[k] for row in at[t]) for t in turns] for k in range(ranks)]
    return turns, lines


def _wealth(ax, records: list) -> None:
    """Median cash of each rank over the game: how fast the leader pulls away, and how the last player fares."""
    turns, lines = _wealth_by_rank(records)
    for k, line in enumerate(lines):
        ax.plot(turns, line, "-", color=COLOURS[k % len(COLOURS)], linewidth=1.5, label=_rank(k, len(lines)))
    ax.set_title("Wealth over the game (median cash by rank)")
    ax.set_xlabel("turn")
    ax.set_ylabel("cash")
    ax.yaxis.set_major_formatter(_money_format())
    _legend_below(ax, ncol=min(4, max(1, len(lines))))


def paired_wealth(base: list, variant: list) -> tuple[list, list]:
    """(turns, for each rank [(mean, low, high) at each turn]): the variant's cash of the richest, 2nd...
    poorest player minus the base's in the game of the same seed, over the pairs where both games are
    still going, for as long as at least LIVE_SHARE of the pairs are; the interval is the mean's 95% one
    (normal approximation: mean ± 1.96 standard errors)."""
    at: dict = {}
    for x, y in zip(base, variant):
        mine, theirs = dict(x.wealth or ()), dict(y.wealth or ())
        for turn in mine.keys() & theirs.keys():
            before, after = sorted(mine[turn], reverse=True), sorted(theirs[turn], reverse=True)
            at.setdefault(turn, []).append([b - a for a, b in zip(before, after)])
    enough = max(2, int(LIVE_SHARE * len(base)))
    turns = sorted(t for t, rows in at.items() if len(rows) >= enough)
    ranks = len(base[0].cash) if base else 0
    lines = []
    for k in range(ranks):
        line = []
        for t in turns:
            values = [row[k] for row in at[t]]
            mean = statistics.fmean(values)
            half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
            line.append((mean, mean - half, mean + half))
        lines.append(line)
    return turns, lines


def _wealth_difference(ax, base: list, variant: list) -> None:
    """`diff`: each rank's cash, variant minus base on the same seed, its mean over the pairs with a 95% band;
    the zero line is no difference."""
    turns, lines = paired_wealth(base, variant)
    ax.axhline(0, color="#333333", linewidth=0.9, linestyle="--", label="no difference")
    for k, line in enumerate(lines):
        colour = COLOURS[k % len(COLOURS)]
        ax.fill_between(turns, [low for _, low, _ in line], [high for _, _, high in line], color=colour, alpha=0.15,
                        linewidth=0)
        ax.plot(turns, [mean for mean, _, _ in line], "-", color=colour, linewidth=1.5, label=_rank(k, len(lines)))
    ax.set_title("Wealth: variant - base, paired by seed (mean, 95% band)")
    ax.set_xlabel("turn")
    ax.set_ylabel("cash difference")
    ax.yaxis.set_major_formatter(_money_format())
    _legend_below(ax, ncol=min(5, len(lines) + 1))


def _money_format():
    from matplotlib.ticker import FuncFormatter

    def money(x, _pos):
        if abs(x) >= 1_000_000:
            return f"${x / 1_000_000:,.1f}M"
        if abs(x) >= 10_000:
            return f"${x / 1_000:,.0f}k"
        return f"${x:,.0f}"
    return FuncFormatter(money)


def _plain_format():
    from matplotlib.ticker import FuncFormatter
    return FuncFormatter(lambda x, _pos: f"{x:,.0f}")


def _three_panels(title: str, subtitle: str):
    plt = _pyplot()
    figure, axes = plt.subplots(1, 3, figsize=(15, 5.4), gridspec_kw={"width_ratios": [1.1, 1, 1.2]})
    figure.suptitle(title, fontsize=12, fontweight="bold", x=0.01, ha="left", y=1.02)
    figure.text(0.01, 0.955, subtitle, fontsize=9, color="#555555", ha="left")
    figure.subplots_adjust(wspace=0.32, top=0.86, bottom=0.3)  # the legends below the panels
    return figure, axes


# ---- the pictures -----------------------------------------------------------------------------------------

def simulate_figure(summary):
    """`simulate --plot`: one game's lengths, wins and wealth."""
    s = summary
    figure, axes = _three_panels(s.title, f"{s.games} games, {s.players} players, {s.agents} agents, "
                                          f"seeds {s.seed}..{s.seed + s.games - 1}")
    sides = [(s.title, s.records, COLOURS[0])]
    _lengths(axes[0], sides)
    _wins(axes[1], sides, s.players)
    _wealth(axes[2], s.records)
    return figure


def diff_figure(base_title: str, variant_title: str, m):
    """`diff --plot`: the base and the variant side by side on the same seeds, and wealth as their paired difference."""
    figure, axes = _three_panels(f"{variant_title} against {base_title}",
                                 f"{m.games} paired games, {m.players} players, {m.agents} agents, "
                                 f"seeds {m.seed}..{m.seed + m.games - 1}")
    sides = [("base", m.base, BASE), ("variant", m.variant, VARIANT)]
    _lengths(axes[0], sides)
    _wins(axes[1], sides, m.players)
    _wealth_difference(axes[2], m.base, m.variant)
    return figure


def sweep_figure(sweep):
    """`sweep --plot`: each figure against the parameter, its 95% interval as a band."""
    plt = _pyplot()
    figure, axes = plt.subplots(1, 3, figsize=(15, 5.4))
    figure.suptitle(f"{sweep.title}: {sweep.name} from {sweep.rows[0].text} to {sweep.rows[-1].text}{sweep.step_text}",
                    fontsize=12, fontweight="bold", x=0.01, ha="left", y=1.02)
    figure.text(0.01, 0.955, f"{sweep.games} games a value, {sweep.players} players, {sweep.agents} agents, "
                             f"seeds {sweep.seed}..{sweep.seed + sweep.games - 1} for each value; bands: 95% intervals",
                fontsize=9, color="#555555", ha="left")
    figure.subplots_adjust(wspace=0.28, top=0.86, bottom=0.3)  # the legends below the panels
    xs = [row.value for row in sweep.rows]

    def band(ax, key, colour, label, scale=1.0, marker="o"):
        figures = [row.balance.get(key) for row in sweep.rows]
        if all(f is None for f in figures):
            return
        pts = [(x, f.interval) for x, f in zip(xs, figures) if f is not None]
        px = [x for x, _ in pts]
        ax.fill_between(px, [scale * i.low for _, i in pts], [scale * i.high for _, i in pts], color=colour,
                        alpha=0.18, linewidth=0)
        ax.plot(px, [scale * i.value for _, i in pts], marker=marker, markersize=3.5, color=colour, linewidth=1.5,
                label=label)

    band(axes[0], "turns", COLOURS[0], "mean turns per game")
    axes[0].set_title("How long games last")
    axes[0].set_ylabel("turns per game")
    axes[0].set_ylim(bottom=0)
    step = (xs[-1] - xs[0]) / max(1, len(xs) - 1)
    for seat in range(1, sweep.players + 1):  # error bars, side by side: bands of four seats would hide each other
        shift = (seat - (sweep.players + 1) / 2) * step * 0.06
        shares = [row.balance.figure(f"seat_{seat}_won").interval for row in sweep.rows]
        axes[1].errorbar([x + shift for x in xs], [100 * i.value for i in shares],
                         yerr=_error_bars(shares),
                         marker="o", markersize=3.5, capsize=2, linewidth=1.4, elinewidth=0.8,
                         color=COLOURS[(seat - 1) % len(COLOURS)], label=f"seat {seat}")
    even = [100 * sum(f.interval.value for f in row.balance.figures if f.key.startswith("seat_")) / sweep.players
            for row in sweep.rows]
    axes[1].plot(xs, even, "--", color="#333333", linewidth=0.9, label="even share")
    axes[1].set_title("Who wins, by seat (95% intervals)")
    axes[1].set_ylabel("% of games won")
    axes[1].set_ylim(0, axes[1].get_ylim()[1] * 1.1)
    reasons = list(dict.fromkeys((f.key, f.label) for row in sweep.rows for f in row.balance.figures
                                 if f.key.startswith("ended:")))
    keys = [("completed", "ended by a rule"), ("timeouts", "reached the turn limit"),
            ("any_bankruptcy", "had an elimination")] + (reasons if len(reasons) > 1 else [])
    for i, (key, label) in enumerate(keys):
        band(axes[2], key, COLOURS[i % len(COLOURS)], label, 100)
    axes[2].set_title("How games end")
    axes[2].set_ylabel("% of games")
    axes[2].set_ylim(-2, 102)
    for ax in axes:
        ax.set_xlabel(sweep.name)
        if len(xs) <= 12:
            ax.set_xticks(xs)
        ax.xaxis.set_major_formatter(_money_format() if sweep.money else _plain_format())
    _legend_below(axes[0])
    _legend_below(axes[1], ncol=3, fontsize=7)
    _legend_below(axes[2])
    return figure
