"""Public calls accept the obvious inputs and reject the rest with TypeError or ValueError
(NumberplaceError is one) naming the argument: never an internal error."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import numberplace
from numberplace import (
    Alphabet,
    NumberplaceError,
    Puzzle,
    by_name,
    classic,
    count,
    diagonal,
    first_solution,
    is_unique,
    jigsaw,
    samurai,
    solutions,
    solve,
    solve_batch,
)
from numberplace import formats as fmt
from numberplace.engine import solve_blob, solve_values
from numberplace.generate import generate
from numberplace.logic.explain import explain, next_hint
from numberplace.logic.rating import rate

from conftest import BOOK_PUZZLES

UNIQUE = BOOK_PUZZLES[0]
SOLVED = solve(UNIQUE).solution
CLASHING = "11" + "." * 79

#: Puzzles whose searches are short whatever limit is asked (the empty 4x4 has 288).
PUZZLES = st.sampled_from([
    Puzzle.from_string(UNIQUE), Puzzle.from_string(CLASHING), Puzzle.empty(classic(4)),
    Puzzle(classic(9), SOLVED or ()), Puzzle.from_string("." * 16 + "\n", shape="4x4"),
])
SHAPES = st.sampled_from([classic(4), classic(9), diagonal(), samurai()])

#: Arbitrary Python values, and the values these calls are most likely to trip on.
VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=-3, max_value=40),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30),
    st.binary(max_size=30), st.lists(st.integers(-2, 30), max_size=20),
    st.tuples(st.integers(-2, 30), st.integers(-2, 30)), st.dictionaries(st.text(), st.integers()),
    st.sampled_from([UNIQUE, CLASHING, "." * 16, "hex", "digits", "WORDPLAYS", "16x16",
                     "samurai", "jigsaw", "line", "json", object(), math.nan, -1, 0, 2**40]),
    PUZZLES, SHAPES,
)

#: Each public call, with the keyword arguments it takes (each may be drawn or left out).
CALLS: list[tuple[Callable[..., Any], tuple[str, ...]]] = [
    (solve, ("limit", "keep", "node_limit", "time_limit", "backend")),
    (count, ("limit", "keep", "node_limit", "time_limit", "backend")),
    (first_solution, ("node_limit", "time_limit", "backend")),
    (is_unique, ("node_limit", "time_limit", "backend")),
    (solutions, ("limit", "node_limit", "time_limit", "backend")),
    (solve_batch, ("limit", "node_limit", "time_limit", "backend")),
    (solve_blob, ("limit", "keep_first", "node_limit", "time_limit", "backend")),
    (solve_values, ("limit", "node_limit", "time_limit", "backend")),
    (Puzzle, ("alphabet", "candidates")),
    (Puzzle.from_string, ("shape", "alphabet")),
    (Puzzle.empty, ("shape", "alphabet")),
    (classic, ("size", "box")),
    (jigsaw, ("regions", "size")),
    (diagonal, ("base",)),
    (by_name, ("name",)),
    (Alphabet, ("symbols", "name")),
    (Alphabet.for_size, ("size", "convention")),
    (fmt.parse, ("shape", "alphabet", "format", "source")),
    (fmt.write, ("format", "values")),
    (explain, ("techniques", "guess", "time_limit")),
    (next_hint, ("techniques", "placement", "time_limit")),
    (rate, ("time_limit", "node_limit", "book")),
]

#: Calls that may take long on a legal request are given a few seconds at most.
BOUNDED = {explain: 5.0, next_hint: 5.0, rate: 5.0}


@st.composite
def arguments(draw: st.DrawFn, keywords: tuple[str, ...]) -> tuple[list[object],
                                                                    dict[str, object]]:
    positional = draw(st.lists(VALUES, max_size=3))
    chosen = draw(st.lists(st.sampled_from(keywords), unique=True)) if keywords else []
    return positional, {k: draw(VALUES) for k in chosen}


@pytest.mark.slow
@pytest.mark.parametrize(("call", "keywords"), CALLS,
                         ids=[c.__qualname__ for c, _ in CALLS])
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_public_calls_raise_only_type_or_value_errors(call: Callable[..., Any],
                                                      keywords: tuple[str, ...],
                                                      data: st.DataObject) -> None:
    positional, named = data.draw(arguments(keywords))
    if call in BOUNDED:
        named["time_limit"] = BOUNDED[call]
    try:
        call(*positional, **named)
    except (TypeError, ValueError):
        pass


def test_generate_checks_its_arguments() -> None:
    for named in ({"level": "7"}, {"level": 2.5}, {"shape": 9}, {"symmetry": None},
                  {"clues": "20-30"}, {"clues": (90, 95)}, {"difficulty": (20.0, 30.0)},
                  {"seed": "x"}, {"time_limit": math.nan}, {"node_limit": -1},
                  {"needs": 3}, {"pattern": 5}):
        with pytest.raises((TypeError, ValueError)):
            generate(**named, time_limit=named.get("time_limit", 5.0))  # type: ignore[arg-type]


@pytest.mark.parametrize(("call", "message"), [
    (lambda: solve("." * 81, limit=2**40), "limit must be from 1 to 2,147,483,647"),
    (lambda: solve("." * 81, limit="2"), "limit must be a whole number, not str"),
    (lambda: solve("." * 81, time_limit=math.nan), "time_limit must be a number of seconds"),
    (lambda: solve("." * 81, keep=-1), "keep must be from 0"),
    (lambda: solve(None), "puzzle must be a Puzzle or a puzzle's text, not NoneType"),
    (lambda: solve_batch([UNIQUE, 3]), "puzzles[1] must be a Puzzle"),
    (lambda: Puzzle.from_string(None), "text must be a string, not NoneType"),
    (lambda: Puzzle.from_string(b"12"), "text must be a string, not bytes"),
    (lambda: Puzzle.from_string("." * 81, shape=16), "shape must be a Shape or a shape's name"),
    (lambda: classic("9"), "size must be a whole number, not str"),
    (lambda: classic(True), "size must be a whole number, not bool"),
    (lambda: classic(9, "3x3"), "box must be a pair"),
    (lambda: by_name(None), "name must be a string, not NoneType"),
])
def test_bad_arguments_are_named(call: Callable[[], object], message: str) -> None:
    with pytest.raises((TypeError, NumberplaceError), match=message.replace("(", r"\(")
                       .replace(")", r"\)").replace("[", r"\[").replace("]", r"\]")):
        call()


def test_a_puzzle_string_is_accepted_where_a_puzzle_is_expected() -> None:
    assert solve(UNIQUE).status == "unique"
    assert is_unique(UNIQUE)
    assert first_solution(UNIQUE) == SOLVED
    assert [r.status for r in solve_batch([UNIQUE, CLASHING])] == ["unique", "invalid"]
    assert Puzzle.from_string("." * 81, alphabet="123456789").alphabet == Alphabet("123456789")
    assert numberplace.solve is solve
