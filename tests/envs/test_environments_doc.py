"""``docs/environments.md`` is what ``python -m poolgym.envs.docs`` generates from the env
docstrings and the registry: it fails when an env, a docstring or a space changed and the
page was not regenerated."""
from poolgym.envs import docs


def test_every_registered_id_has_a_section():
    text = docs.render()
    ids = docs.env_ids()
    assert len(ids) >= 6 and "poolgym/NineBall-v0" in ids
    for env_id in ids:
        assert f"## `{env_id}`" in text
    assert "`shared/rules/nine_ball.md`" in text and "### Rewards" in text


def test_environments_page_is_up_to_date():
    assert docs.DEFAULT_OUT.exists(), "docs/environments.md missing: run python -m poolgym.envs.docs"
    assert docs.DEFAULT_OUT.read_text(encoding="utf-8") == docs.render(), \
        "docs/environments.md is stale: run python -m poolgym.envs.docs"
