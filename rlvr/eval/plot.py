"""The evaluation plot: accuracy by level and by subject (bars), and the pass@k / maj@k curves over k."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rlvr.eval.report import EvalReport


def plot_report(report: EvalReport, path: str | Path) -> Path:
    """Save a PNG of the report: one bar panel per group field (level, subject, ...) and the pass@k curve."""
    import matplotlib

    matplotlib.use("Agg")  # files only; never needs a display
    import matplotlib.pyplot as plt

    fields = [f for f in report.groups if f != "overall"]
    k_max = max(report.ks)
    panels = len(fields) + 1
    fig, axes = plt.subplots(1, panels, figsize=(4.8 * panels, 4.2), squeeze=False)
    overall = report.groups["overall"]["all"]
    for ax, name in zip(axes[0], fields):
        rows = report.groups[name]
        labels = list(rows)
        x = range(len(labels))
        width = 0.4 if k_max > 1 else 0.8
        ax.bar(
            [i - width / 2 if k_max > 1 else i for i in x],
            [rows[v]["pass@1"] for v in labels],
            width,
            label="pass@1",
            color="tab:blue",
        )
        if k_max > 1:
            ax.bar(
                [i + width / 2 for i in x],
                [rows[v][f"pass@{k_max}"] for v in labels],
                width,
                label=f"pass@{k_max}",
                color="tab:orange",
            )
        ax.axhline(overall["pass@1"], color="gray", linestyle="--", linewidth=1, label="overall pass@1")
        ax.set_xticks(list(x))
        ax.set_xticklabels(
            [f"{v}\n(n={rows[v]['problems']:.0f})" for v in labels],
            rotation=30 if name != "level" else 0,
            ha="right" if name != "level" else "center",
            fontsize=8,
        )
        ax.set_ylim(0, 1.05)
        ax.set_title(f"accuracy by {name}")
        ax.set_ylabel("accuracy")
        ax.legend(fontsize=7)
    ax = axes[0][-1]
    ks = list(report.ks)
    ax.plot(ks, [overall[f"pass@{k}"] for k in ks], marker="o", label="pass@k")
    if all(f"maj@{k}" in overall for k in ks):
        ax.plot(ks, [overall[f"maj@{k}"] for k in ks], marker="s", label="maj@k")
    if len(ks) > 1:
        ax.set_xscale("log", base=2)
    ax.set_xticks(ks)
    ax.set_xticklabels([str(k) for k in ks])
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("k")
    ax.set_title(f"pass@k ({int(overall['samples'] / overall['problems'])} samples/problem)")
    ax.legend(fontsize=7)
    fig.suptitle(f"{report.settings.get('env')} · {report.settings.get('model')}", fontsize=10)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
