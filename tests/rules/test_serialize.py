"""JSON round trip (``poolgym.rules.serialize``): an unknown type name loads the discipline
modules to find it, and a discipline module that fails to import raises its own error."""
import pytest

from poolgym.rules import core, serialize


def test_unknown_type_is_an_error():
    with pytest.raises(ValueError, match="NoSuchType"):
        serialize.from_obj({"__t__": "NoSuchType"})


def test_discipline_import_error_propagates(monkeypatch):
    monkeypatch.setitem(core.DISCIPLINE_PATHS, "broken", "poolgym_no_such_discipline_module:Broken")
    with pytest.raises(ModuleNotFoundError, match="poolgym_no_such_discipline_module"):
        serialize.from_obj({"__t__": "NoSuchType"})
