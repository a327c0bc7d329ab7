"""host/search.py `sorted_first`: a long listing sorted a slice per turn of the event loop and merged gives exactly
the first paths a whole sort would (tests/bench/large_repo_bench.py measured the whole sort holding the extension
host)."""
import asyncio
import random

from hermes.host import search


def test_the_first_paths_of_a_sliced_sort_are_those_of_a_whole_sort(monkeypatch):
    monkeypatch.setattr(search, 'SORT_SLICE', 7)
    rng = random.Random(34)
    paths = [f'pkg{rng.randrange(30):02}/{"-/_.aZ"[rng.randrange(6)]}mod{rng.randrange(50)}.ts' for _ in range(200)]
    for count in (0, 1, 6, 7, 8, 50, 199, 200, 201, 1000):
        assert asyncio.run(search.sorted_first(list(paths), count)) == sorted(paths)[:count]


def test_a_short_listing_is_sorted_at_once():
    assert asyncio.run(search.sorted_first(['b', 'a', 'c'], 2)) == ['a', 'b']
    assert search.merge_first([['a', 'c'], ['b'], []], 10) == ['a', 'b', 'c']
