"""Compute-optimal replay settings from Theorem 4.5 of the replay paper (arXiv 2604.08706; PAPER.md section 3).

A synchronous step generates R rollouts, keeps the N freshest in a FIFO buffer and trains on B drawn from it; it
costs B + mu R (trained-sample units, mu = generation cost per rollout / training cost per sample). With the
staleness horizon x = N/R and the replay ratio y = B/R, the theorem's large-budget bound is minimised by

    J(x, y) = sigma^2(x) (1 + y/mu) (1/y + 1/x + rho),

where sigma(x) bounds the gradient noise of samples x steps old and rho the correlation of replayed samples.
For sigma(x) = (x/tau)^alpha with alpha < 1/2 the minimiser is in closed form:

    y* = (-alpha + sqrt(alpha^2 + mu rho (1 - 2 alpha))) / rho,    x* = y*^2 / (2 alpha (mu + y*)).

alpha and rho are not measurable cheaply, so `plan` reports a band over a range of them. Only ratios are
determined; N = x* R and B = y* R follow from the R you choose. When y* < 1 (train on fewer samples than were
generated) or x* < 1 (a horizon shorter than one step) replay does not pay: stay on-policy (N = B = R).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: default ranges of the unknown constants (alpha < 1/2 keeps the closed form valid)
ALPHA_RANGE = (0.05, 0.45)
RHO_RANGE = (0.01, 1.0)
#: the point estimate printed alongside the band (the paper-derived example of PAPER.md section 3)
ALPHA, RHO = 0.25, 0.1


def objective(x: float, y: float, mu: float, alpha: float, rho: float) -> float:
    """J(x, y) = sigma^2(x) (1 + y/mu) (1/y + 1/x + rho) with sigma(x) = x^alpha (tau = 1: J is scale-free)."""
    return x ** (2 * alpha) * (1 + y / mu) * (1 / y + 1 / x + rho)


def optimum(mu: float, alpha: float, rho: float) -> tuple[float, float]:
    """(x*, y*) of Theorem 4.5 for power-law sigma; x* = 0 when alpha >= 1/2 (no finite horizon pays)."""
    if not (mu > 0 and math.isfinite(mu)):
        raise ValueError(f"mu must be a positive finite number (generation / training cost), got {mu}")
    if not alpha > 0:
        raise ValueError(f"alpha must be > 0 (sigma grows with staleness), got {alpha}")
    if rho < 0:
        raise ValueError(f"rho must be >= 0, got {rho}")
    if alpha >= 0.5:
        return 0.0, 0.0
    if rho == 0:  # the limit rho -> 0 of the closed form
        y = mu * (1 - 2 * alpha) / (2 * alpha)
    else:
        y = (-alpha + math.sqrt(alpha**2 + mu * rho * (1 - 2 * alpha))) / rho
    return y * y / (2 * alpha * (mu + y)), y


@dataclass(frozen=True)
class Plan:
    """A recommended N and B for R rollouts per step, with the band over the unknown alpha and rho."""

    mu: float
    R: int
    alpha: float
    rho: float
    x: float
    y: float
    x_band: tuple[float, float]
    y_band: tuple[float, float]
    on_policy_share: float  # fraction of the (alpha, rho) grid where staying on-policy is optimal
    saving: float  # 1 - J(x*, y*) / J(1, 1) at the point estimate (0 when on-policy)

    @property
    def replay(self) -> bool:
        """True when replay beats on-policy at the point estimate (y* >= 1 and x* >= 1)."""
        return self.y >= 1 and self.x >= 1

    @property
    def B(self) -> int:
        """Rollouts per optimizer step (R when on-policy)."""
        return max(self.R, round(self.y * self.R)) if self.replay else self.R

    @property
    def N(self) -> int:
        """Buffer capacity; at least B, since a batch is drawn without repeats (the theory allows N < B)."""
        return max(self.B, round(self.x * self.R)) if self.replay else self.R

    def summary(self) -> str:
        """A few lines for the terminal."""
        R = self.R
        lines = [f"mu = {self.mu:.3g}, R = {R} rollouts per step"]
        head = (
            f"at alpha = {self.alpha:g}, rho = {self.rho:g}: x* = N/R = {self.x:.2f}, y* = B/R = {self.y:.2f}"
        )
        if self.replay:
            n_raw = round(self.x * R)
            note = (
                ""
                if n_raw >= self.B
                else f" (x* R = {n_raw} < B: raised to B, batches are drawn without repeats)"
            )
            lines += [
                head,
                f"  -> train.batch_size B = {self.B}, buffer.capacity N = {self.N}{note}",
                f"  predicted J {100 * self.saving:.0f}% below on-policy's at the same compute",
            ]
        else:
            lines += [head, f"  -> stay on-policy: B = N = R = {R} (replay does not pay at this mu)"]
        (xl, xh), (yl, yh) = self.x_band, self.y_band
        lines.append(
            f"band over alpha in [{ALPHA_RANGE[0]}, {ALPHA_RANGE[1]}], rho in [{RHO_RANGE[0]}, {RHO_RANGE[1]}]: "
            f"B/R in [{yl:.2f}, {yh:.2f}] (B in [{round(yl * R)}, {round(yh * R)}]), N/R in [{xl:.2f}, {xh:.2f}] "
            f"(N in [{round(xl * R)}, {round(xh * R)}]); on-policy optimal on {100 * self.on_policy_share:.0f}% of it"
        )
        return "\n".join(lines)


def _grid(lo: float, hi: float, n: int, log: bool) -> list[float]:
    if n == 1 or lo == hi:
        return [lo]
    if log:
        return [lo * (hi / lo) ** (i / (n - 1)) for i in range(n)]
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def plan(
    mu: float,
    rollouts_per_step: int,
    *,
    alpha: float = ALPHA,
    rho: float = RHO,
    alpha_range: tuple[float, float] = ALPHA_RANGE,
    rho_range: tuple[float, float] = RHO_RANGE,
    grid: int = 21,
) -> Plan:
    """N and B for `rollouts_per_step` at cost ratio `mu`: the point estimate and its band over alpha and rho."""
    if rollouts_per_step < 1:
        raise ValueError(f"rollouts_per_step must be >= 1, got {rollouts_per_step}")
    x, y = optimum(mu, alpha, rho)
    xs, ys, on_policy = [], [], 0
    points = [(a, r) for a in _grid(*alpha_range, grid, False) for r in _grid(*rho_range, grid, True)]
    for a, r in points:
        xa, ya = optimum(mu, a, r)
        xs.append(xa)
        ys.append(ya)
        on_policy += not (ya >= 1 and xa >= 1)
    replay = y >= 1 and x >= 1
    saving = 1 - objective(x, y, mu, alpha, rho) / objective(1, 1, mu, alpha, rho) if replay else 0.0
    return Plan(
        mu=mu,
        R=int(rollouts_per_step),
        alpha=alpha,
        rho=rho,
        x=x,
        y=y,
        x_band=(min(xs), max(xs)),
        y_band=(min(ys), max(ys)),
        on_policy_share=on_policy / len(points),
        saving=saving,
    )


def hint(mu: float, rollouts_per_step: int, batch_size: int, capacity: int) -> str | None:
    """A one-line hint when a run's B/R or N/R lies outside the band the measured mu gives; None otherwise."""
    if not (mu > 0 and math.isfinite(mu)):
        return None
    p = plan(mu, rollouts_per_step)
    R = rollouts_per_step
    y, x = batch_size / R, capacity / R
    if p.on_policy_share == 1.0 and (y > 1 or x > 1):
        return (
            f"plan: at the measured mu = {mu:.2f} Theorem 4.5 says replay does not pay for any alpha/rho in the "
            f"band; on-policy (B = N = R = {R}) should need less compute (`rlvr plan --mu {mu:.2f} "
            f"--rollouts-per-step {R}`)"
        )
    (xl, xh), (yl, yh) = p.x_band, p.y_band
    far = []
    if not yl / 2 <= y <= max(yh, 1.0) * 2:
        far.append(f"B/R = {y:.2f} vs band [{yl:.2f}, {yh:.2f}]")
    if not xl / 2 <= x <= max(xh, 1.0) * 2:
        far.append(f"N/R = {x:.2f} vs band [{xl:.2f}, {xh:.2f}]")
    if not far:
        return None
    return (
        f"plan: at the measured mu = {mu:.2f} this run's "
        + " and ".join(far)
        + f" are far from Theorem 4.5's plan "
        f"(B = {p.B}, N = {p.N} at alpha {p.alpha:g}, rho {p.rho:g}; `rlvr plan --mu {mu:.2f} "
        f"--rollouts-per-step {R}`)"
    )
