"""The `--plot` pictures: every legend outside the data it would cover (below its panel: it meets no
panel, no axis label and no other legend), and `diff`'s wealth panel drawing the paired difference
(the variant's cash minus the base's on the same seed, rank by rank) with its interval."""

from __future__ import annotations

from pathlib import Path

import pytest

plt = pytest.importorskip("matplotlib.pyplot")

from rulesc import plots  # noqa: E402
from rulesc.balance import GameRecord  # noqa: E402
from rulesc.diff import measure  # noqa: E402
from rulesc.dsl.checker import check_program  # noqa: E402
from rulesc.dsl.variants import load_file  # noqa: E402
from rulesc.interpreter.rules import compile_rules, load_rules  # noqa: E402
from rulesc.simulate import simulate  # noqa: E402
from rulesc.sweep import parse_range, sweep  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FINANCE = ROOT / "games" / "finance.rules"
FAST_MONEY = ROOT / "examples" / "finance-fast-money.rules"


@pytest.fixture(scope="module")
def fast_money():
    base, variant = load_rules(str(FINANCE)), load_rules(str(FAST_MONEY))
    return base, variant, measure(base, variant, 8, 0, 3, wealth=True)


def figures(fast_money):
    base, variant, measured = fast_money
    rules = load_rules(str(FINANCE))
    swept = parse_range(["starting_cash=500..1500", "step", "500"])
    checked = check_program(load_file(str(FINANCE)))
    by_value = [compile_rules(checked, [f"starting_cash={swept.text(v)}"]) for v in swept.values]
    return {"simulate": plots.simulate_figure(simulate(rules, 6, 0, 3, wealth=True)),
            "diff": plots.diff_figure(base.title, variant.title, measured),
            "sweep": plots.sweep_figure(sweep(by_value, swept, 4, 0, 3))}


def overlap(a, b) -> bool:
    return min(a.x1, b.x1) > max(a.x0, b.x0) + 0.5 and min(a.y1, b.y1) > max(a.y0, b.y0) + 0.5


@pytest.mark.slow
def test_every_legend_is_outside_every_panel_and_its_labels(fast_money):
    for name, figure in figures(fast_money).items():
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        legends = [(ax, ax.get_legend()) for ax in figure.axes if ax.get_legend() is not None]
        assert len(legends) == 3, name
        for ax, legend in legends:
            box = legend.get_window_extent(renderer)
            for other in figure.axes:  # the data area of every panel, its axis labels and tick labels
                assert not overlap(box, other.get_window_extent(renderer)), (name, ax.get_title())
                assert not overlap(box, other.xaxis.get_tightbbox(renderer)), (name, ax.get_title())
                assert not overlap(box, other.yaxis.get_tightbbox(renderer)), (name, ax.get_title())
            for _, another in legends:
                if another is not legend:
                    assert not overlap(box, another.get_window_extent(renderer)), name
        plt.close(figure)


def record(seed: int, wealth: tuple) -> GameRecord:
    return GameRecord(seed, 10, "end", 1, 1, wealth[-1][1], (False, False), {}, wealth)


def test_paired_wealth_is_the_variant_minus_the_base_on_each_seed_rank_by_rank():
    base = [record(0, ((0, (100, 50)), (2, (300, 10)))), record(1, ((0, (100, 50)), (2, (200, 20))))]
    variant = [record(0, ((0, (100, 50)), (2, (20, 400)))), record(1, ((0, (100, 50)), (2, (260, 30))))]
    turns, (richest, poorest) = plots.paired_wealth(base, variant)
    assert turns == [0, 2]
    assert richest[0] == poorest[0] == (0.0, 0.0, 0.0)  # the same cash: no difference, no width
    # seed 0: richest 400 - 300, poorest 20 - 10 (ranks, not seats); seed 1: 260 - 200, 30 - 20
    mean, low, high = richest[1]  # differences 100 and 60: mean 80, standard deviation 28.28, half-width 39.2
    assert mean == 80 and abs(high - 119.2) < 0.01 and abs(low - 40.8) < 0.01
    assert poorest[1] == (10.0, 10.0, 10.0)


def test_the_diff_wealth_panel_draws_the_paired_difference_and_its_band(fast_money):
    base, variant, measured = fast_money
    figure = plots.diff_figure(base.title, variant.title, measured)
    panel = figure.axes[2]
    turns, lines = plots.paired_wealth(measured.base, measured.variant)
    drawn = {line.get_label(): line for line in panel.get_lines()}
    assert set(drawn) == {"no difference", "richest", "2nd", "poorest"}
    assert list(drawn["richest"].get_xdata()) == turns
    assert list(drawn["richest"].get_ydata()) == [mean for mean, _, _ in lines[0]]
    assert list(drawn["no difference"].get_ydata()) == [0, 0]
    assert len(panel.collections) == 3  # a band for each rank
    assert "variant - base" in panel.get_title()
    plt.close(figure)
