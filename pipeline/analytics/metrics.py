"""Per-group balance metrics of a run: the named queries behind ``character_table``.

Every metric is defined over seat-hands (one row of ``hands``: one seat in one hand) and
clustered by match. The queries (DuckDB, over the run's views) sum each (group, match) cluster
and return, per group, the cluster moments :mod:`pipeline.analytics.intervals` turns into
estimates with intervals: the work stays in DuckDB and one row per group comes out. A group is
a character (``character``, "(none)" for hands played without one), a seat ("0".."3") or the
preset name.

Definitions (numerators / denominators; "hands" means the group's seat-hands):

- ``hands``: seat-hands of the group; ``matches``: matches in which it played a hand.
- ``pick_rate``: seat-hands in which the character was picked / seat-hands in which the seat
  held it (``picks.team`` contains it). Characters only.
- ``win_rate``: hands won (``tsumo_win`` or ``ron_win``) / hands.
- ``tsumo_share``: tsumo wins / wins.
- ``deal_in_rate``: hands in which the seat dealt into a ron (``dealt_in``) / hands.
- ``riichi_rate``: hands with an accepted riichi / hands.
- ``call_rate``: hands with at least one open call (chi, pon, open kan) / hands.
- ``draw_tenpai_rate``: hands tenpai at the end / hands that ended in an exhaustive draw
  (``exhaustive`` or ``nagashi_mangan``: the wall ran out, as in the bots' calibration).
- ``avg_win``: mean ``win_points`` of the group's wins (value before honba and sticks).
- ``avg_deal_in``: mean value of a deal-in: the ``win_points`` of every ron taken off the seat
  in that hand (both wins of a double ron).
- ``swing``: mean ``delta`` per hand: every payment of the hand, honba, riichi deposits paid and
  sticks collected and ability stakes included; ``swing_sd`` its standard deviation over hands.
- ``field_diff``: swing minus the field average (all seat-hands of the same run), or minus the
  baseline run's reference when a baseline is given (see ``character_table``).
- placement (``avg_place``, ``top_rate``, ``last_rate``, ``avg_result``): the final rank and
  result (uma included) of each (match, seat) the group played in, weighted by the number of
  hands the group played there. A character picked for 3 of a seat's 9 hands carries a third
  of that seat's result; with one character per seat for the whole match this is simply the
  seat's result. Interval: cluster-robust, cluster = match.
- ``triggers_per_hand``: ability triggers (``hands.ability_triggers``, one ``ability`` event
  each) / hands. ``trigger_value``: mean points a trigger added where its event states a value
  (scoring effects: ``scoring: +1 han, +2000 points``); ``trigger_han`` the same in han. The
  trigger is the seat's: a scoring event sits on the winner's row.
"""

from __future__ import annotations

import polars as pl

from pipeline.analytics.runs import AnalyticsError, RunData

GROUPINGS = ("character", "seat", "preset")
NONE_GROUP = "(none)"
WIN_OUTCOMES = ("tsumo_win", "ron_win")
DRAW_KINDS = ("exhaustive", "nagashi_mangan")  # the wall ran out (as in bots.calibrate)

_WINS = "outcome IN ('tsumo_win', 'ron_win')"
_DRAWS = "draw_kind IN ('exhaustive', 'nagashi_mangan')"


def group_sql(run: RunData, by: str, table: str = "") -> str:
    """The SQL expression naming a hand row's group (columns of ``table``, when given)."""
    t = f"{table}." if table else ""
    if by == "character":
        return f"coalesce({t}character, '{NONE_GROUP}')"
    if by == "seat":
        return f"CAST({t}seat AS VARCHAR)"
    if by == "preset":
        return "'" + run.preset_name.replace("'", "''") + "'"
    raise AnalyticsError(f"unknown grouping {by!r} (known: {', '.join(GROUPINGS)})")


# name -> (numerator, denominator) of a cluster: the estimates built from cluster moments
MOMENTS: dict[str, tuple[str, str]] = {
    "win": ("wins", "n"),
    "deal_in": ("deal_ins", "n"),
    "riichi": ("riichi", "n"),
    "call": ("called", "n"),
    "tsumo": ("tsumo", "wins"),
    "draw_tenpai": ("draw_tenpai", "draw_n"),
    "draw_hand": ("draw_n / 4.0", "n / 4.0"),  # per hand: meaningful when a group has all seats
    "swing": ("delta_sum", "n"),
    "avg_win": ("win_pts", "wins"),
    "avg_deal_in": ("deal_in_pts", "deal_ins"),
    "place": ("rank_w", "n"),
}
SUMS = ("n", "wins", "tsumo", "riichi", "called", "draw_n", "draw_tenpai", "delta_sum",
        "delta_sq", "triggers", "top_w", "second_w", "third_w", "last_w", "result_w")


def moment_sql(name: str, y: str, m: str) -> str:
    y, m = f"CAST({y} AS DOUBLE)", f"CAST({m} AS DOUBLE)"
    return (f"sum({y}) AS {name}_Y, sum({m}) AS {name}_M, "
            f"count(*) FILTER ({m} > 0) AS {name}_k, sum({y} * {y}) AS {name}_yy, "
            f"sum({y} * {m}) AS {name}_ym, sum({m} * {m}) AS {name}_mm")


def group_moments(run: RunData, by: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Per group: ``matches``, the sums :data:`SUMS` and the moments of :data:`MOMENTS`, plus
    the swing's cross moments with the field (``swing_yF``, ``swing_yN``, ``swing_mF``,
    ``swing_mN``); and, per match, the field's ``delta_sum`` and ``n``.

    One pass over ``hands`` (each row with its seat's final rank and result from ``matches``,
    so a group's placement is weighted by the hands it played in that seat) sums each
    (group, match) cluster; a second, over the deal-ins only, adds the rons they paid.
    """
    g = group_sql(run, by, "h")
    run.con.execute(f"""
        CREATE OR REPLACE TEMP TABLE _clusters AS
        SELECT {g} AS "group", h.match_id,
            count(*) AS n,
            count(*) FILTER ({_WINS}) AS wins,
            count(*) FILTER (outcome = 'tsumo_win') AS tsumo,
            count(*) FILTER (outcome = 'dealt_in') AS deal_ins,
            count(*) FILTER (riichi) AS riichi,
            count(*) FILTER (calls > 0) AS called,
            count(*) FILTER ({_DRAWS}) AS draw_n,
            count(*) FILTER ({_DRAWS} AND tenpai_end) AS draw_tenpai,
            CAST(coalesce(sum(win_points) FILTER ({_WINS}), 0) AS DOUBLE) AS win_pts,
            CAST(sum(delta) AS DOUBLE) AS delta_sum,
            CAST(sum(CAST(delta AS BIGINT) * delta) AS DOUBLE) AS delta_sq,
            sum(ability_triggers) AS triggers,
            sum(m.rank) AS rank_w,
            count(*) FILTER (m.rank = 1) AS top_w,
            count(*) FILTER (m.rank = 2) AS second_w,
            count(*) FILTER (m.rank = 3) AS third_w,
            count(*) FILTER (m.rank = 4) AS last_w,
            sum(m.result) AS result_w
        FROM hands h JOIN matches m ON m.match_id = h.match_id AND m.seat = h.seat
        GROUP BY ALL
    """)
    try:
        field = run.sql("SELECT match_id, sum(delta_sum) AS delta_sum, sum(n) AS n "
                        "FROM _clusters GROUP BY match_id ORDER BY match_id")
        sums = ", ".join(f"CAST(sum({c}) AS DOUBLE) AS {c}" for c in SUMS)
        moments = ", ".join(moment_sql(k, y, m) for k, (y, m) in MOMENTS.items()
                            if k != "avg_deal_in")
        per_group = run.sql(f"""
            WITH f AS (SELECT match_id, sum(delta_sum) AS sf, CAST(sum(n) AS DOUBLE) AS nf
                       FROM _clusters GROUP BY match_id)
            SELECT "group", count(*) AS matches, {sums}, {moments},
                sum(delta_sum * sf) AS swing_yF, sum(delta_sum * nf) AS swing_yN,
                sum(n * sf) AS swing_mF, sum(n * nf) AS swing_mN
            FROM _clusters JOIN f USING (match_id)
            GROUP BY "group"
        """)
    finally:
        run.con.execute("DROP TABLE IF EXISTS _clusters")
    deal_ins = run.sql(f"""
        WITH ron AS (
            SELECT match_id, hand_index, win_from AS seat, sum(win_points) AS pts
            FROM hands WHERE outcome = 'ron_win' GROUP BY ALL
        ), c AS (
            SELECT {g} AS "group", h.match_id, count(*) AS deal_ins,
                   CAST(sum(ron.pts) AS DOUBLE) AS deal_in_pts
            FROM hands h JOIN ron ON h.match_id = ron.match_id
             AND h.hand_index = ron.hand_index AND h.seat = ron.seat
            WHERE h.outcome = 'dealt_in' GROUP BY ALL)
        SELECT "group", {moment_sql("avg_deal_in", *MOMENTS["avg_deal_in"])}
        FROM c GROUP BY "group"
    """)
    per_group = per_group.join(deal_ins, on="group", how="left").with_columns(
        pl.col("^avg_deal_in_.*$").fill_null(0))
    return per_group, field


def pick_moments(run: RunData) -> pl.DataFrame:
    """Per character: moments ``pick_*`` of (seat-hands picked, seat-hands held) per match."""
    return run.sql(f"""
        WITH c AS (
            SELECT c AS "group", match_id, count(*) AS held,
                   count(*) FILTER (character = c) AS picked
            FROM (SELECT match_id, character, unnest(team) AS c FROM picks)
            GROUP BY ALL)
        SELECT "group", {moment_sql("pick", "picked", "held")} FROM c GROUP BY "group"
    """)


def _credited(run: RunData) -> str:
    """The seat an ability event counts for: the seat whose card caused it (``card_seat``,
    schema 4 on), else the seat it landed on."""
    columns = set(run.sql("SELECT * FROM events LIMIT 0").columns)
    return "coalesce(card_seat, seat)" if "card_seat" in columns else "seat"


def trigger_sums(run: RunData, by: str) -> pl.DataFrame:
    """Per group: ability events that state a value (``valued``), with the summed points
    (``pts``) and han (``han``) they added, each credited to the seat whose card caused it."""
    g = group_sql(run, by)
    return run.sql(rf"""
        WITH e AS (
            SELECT match_id, hand_index, {_credited(run)} AS seat,
                TRY_CAST(NULLIF(regexp_extract(detail, '([+-]?\d+) points', 1), '') AS BIGINT)
                    AS pts,
                TRY_CAST(NULLIF(regexp_extract(detail, '([+-]?\d+) han', 1), '') AS BIGINT)
                    AS han
            FROM events WHERE kind = 'ability'
        ), h AS (SELECT {g} AS "group", match_id, hand_index, seat FROM hands)
        SELECT h."group", count(e.pts) AS valued,
               CAST(coalesce(sum(e.pts), 0) AS DOUBLE) AS pts,
               CAST(coalesce(sum(e.han), 0) AS DOUBLE) AS han
        FROM e JOIN h USING (match_id, hand_index, seat)
        WHERE e.pts IS NOT NULL
        GROUP BY h."group"
    """)


__all__ = ["DRAW_KINDS", "GROUPINGS", "MOMENTS", "NONE_GROUP", "SUMS", "WIN_OUTCOMES",
           "group_moments", "group_sql", "moment_sql", "pick_moments", "trigger_sums"]
