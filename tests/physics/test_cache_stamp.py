"""`physics.cache_stamp`: the project's cached kernels are stamped with a hash of the whole
project's source, so that changing a callee in another module recompiles its callers."""

import numpy as np
from numba import njit
from numba.core.caching import CacheImpl

from physics import cache_stamp, kernel


def test_tree_hash_follows_any_file_of_the_packages(tmp_path):
    for pkg in ("physics", "poolgym"):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "a.py").write_text("x = 1\n")
    (tmp_path / "other.py").write_text("y = 1\n")
    h0 = cache_stamp.tree_hash(tmp_path)
    assert cache_stamp.tree_hash(tmp_path) == h0
    (tmp_path / "other.py").write_text("y = 2\n")  # outside the packages
    assert cache_stamp.tree_hash(tmp_path) == h0
    (tmp_path / "poolgym" / "a.py").write_text("x = 2\n")
    h1 = cache_stamp.tree_hash(tmp_path)
    assert h1 != h0
    (tmp_path / "physics" / "b.py").write_text("")
    assert cache_stamp.tree_hash(tmp_path) != h1


def test_project_kernels_use_the_project_stamp():
    assert CacheImpl._locator_classes[0] is cache_stamp.ProjectLocator
    loc = kernel._creates_overlap._cache._impl._locator
    assert isinstance(loc, cache_stamp.ProjectLocator)
    assert loc.get_source_stamp()[1] == cache_stamp.project_hash()


def test_other_functions_keep_numbas_locators():
    @njit(cache=True)
    def f(x):
        return x + 1

    assert f(np.int64(1)) == 2
    assert not isinstance(f._cache._impl._locator, cache_stamp.ProjectLocator)


def test_project_locator_answers_numbas_other_questions():
    # numba's "cannot cache" warning reads the locator's _py_file (a kernel built with a dynamic
    # global, as NUMBA_OPT=0 leaves some): the inner locator's, not an AttributeError
    loc = kernel._creates_overlap._cache._impl._locator
    assert loc._py_file == kernel.__file__
