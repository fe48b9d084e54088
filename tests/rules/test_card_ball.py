"""Card ball (shared/rules/card_ball.md): scenario tables per rule ID on hand-built shot records."""
import pytest

from poolgym.rules import (CueBallPlacement, EventType, FoulKind, Phase, PlaceCueBall, ShotAction, get_discipline,
                           observe, returns)
from poolgym.rules.games.card_ball import CardBallConfig, CardBallExtra, Deck, Hand, rank
from poolgym.rules.testing import check_privacy, make_state, record

D = get_discipline("card_ball")
CFG = CardBallConfig(n_players=3)
SHOT = ShotAction(V0=3.0, phi=90.0)
XY = {2: (0.3, 1.5), 4: (0.6, 1.6), 6: (0.9, 1.8), 8: (0.4, 2.1), 12: (1.0, 2.2), 13: (0.2, 1.9), 14: (1.1, 1.4),
      15: (0.7, 2.3)}


def card(r, suit=0):
    return (r - 1) * 4 + suit


def st(hands, balls=tuple(XY), cue=(0.6, 1.0), seat=0, cfg=CFG, deck=None, **kw):
    s = make_state("card_ball", {b: XY[b] for b in balls}, cue=cue, config=cfg, seat=seat, **kw)
    hands = tuple(Hand(tuple(sorted(h))) for h in hands)
    used = {c for h in hands for c in h.cards}
    deck = tuple(c for c in range(52) if c not in used) if deck is None else tuple(deck)
    return s.replace(private=hands, hidden=Deck(deck),
                     extra=CardBallExtra(card_counts=tuple(len(h.cards) for h in hands)))


H3 = ([card(12), card(12, 1), card(4), card(6)], [card(12, 2), card(8)], [card(2), card(13)])


@pytest.mark.rule("CB-2", "CB-3")
@pytest.mark.parametrize("n", [2, 6])
def test_CB_2_CB_3_seats_and_deal(n):
    s = D.initial_state(CardBallConfig(n_players=n), seed=n)
    assert all(len(h.cards) == 7 for h in s.private) and len(s.hidden.cards) == 52 - 7 * n
    assert len({c for h in s.private for c in h.cards} | set(s.hidden.cards)) == 52
    assert [(e.kind, e.value) for e in s.history] == [(EventType.DEAL, 7)] * n
    assert s.on_table == (False,) + (True,) * 15
    check_privacy(s)
    with pytest.raises(ValueError, match="n_players"):
        D.initial_state(CardBallConfig(n_players=7), seed=0)


@pytest.mark.rule("CB-6")
def test_CB_6_card_to_ball():
    assert [rank(c) for c in (0, 3, 4, 39, 40, 44, 48, 51)] == [1, 1, 2, 10, 11, 12, 13, 13]


@pytest.mark.rule("CB-8", "CB-9")
def test_CB_8_4_pocketing_removes_the_rank_from_every_hand_and_continues():
    s = st(H3)
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=12, pocketed={12: 2}))
    assert not v.fouls and v.turn_continues and s1.seat_to_act == 0
    assert s1.private[0].cards == (card(4), card(6)) and s1.private[1].cards == (card(8),)
    assert s1.extra.card_counts == (2, 1, 2)
    assert [(e.kind, e.seat, e.value) for e in v.events] == [(EventType.DISCARD, 0, 2), (EventType.DISCARD, 1, 1)]
    check_privacy(s1)


@pytest.mark.rule("CB-5", "CB-1", "CB-8")
def test_CB_5_empty_hand_wins_and_losers_pay_per_card():
    s = st(([card(4)], [card(8), card(2, 1)], [card(2), card(13), card(6)]),
           cfg=CardBallConfig(n_players=3, card_value=5))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=4, pocketed={4: 2}))
    assert v.game_over and v.winner == 0 and v.points == (25, -10, -15) and s1.scores == (25, -10, -15)
    assert returns(s1) == (25.0, -10.0, -15.0)


@pytest.mark.rule("CB-5", "CB-8")
def test_CB_8_7_simultaneous_going_out():
    hands = ([card(4), card(6)], [card(8)], [card(8, 1)])
    s = st(hands)
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=8, pocketed={8: 2}))
    assert v.game_over and v.winner in (1, 2) and v.events[-1].kind is EventType.TIE_DRAW  # high-card draw
    s = st(([card(8)], [card(8, 1)], [card(2)]))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=8, pocketed={8: 2}))
    assert v.winner == 0  # the shooter wins


@pytest.mark.rule("CB-9", "CB-10")
def test_CB_9_legal_shot_needs_own_ball_14_15_or_cushion():
    s = st(H3)
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=2))
    assert v.fouls[0].rule == "CB-9" and "CB-10" in v.rule_refs
    _, v = D.apply_shot_record(s, SHOT, record(s, hit=2, obj_rails=(2,)))
    assert not v.fouls
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, pocketed={14: 1}))
    assert not v.fouls and v.turn_continues  # C-34
    nc = st(H3, cfg=CardBallConfig(n_players=3, pot_14_15_continues=False))
    s1, v = D.apply_shot_record(nc, SHOT, record(nc, hit=2, pocketed={14: 1}))
    assert not v.fouls and s1.seat_to_act == 1


@pytest.mark.rule("CB-9", "CB-10")
def test_CB_9_penalty_draw_sets_aside_dead_cards():
    # deck: the 14-less order does not matter; only a card of a pocketed ball (5) and a live one (4)
    s = st(H3, deck=(card(5), card(4, 2)))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2))  # illegal shot: draw one card
    kinds = [(e.kind, e.value) for e in v.events]
    assert (EventType.SET_ASIDE, card(5)) in kinds and (EventType.DRAW_CARD, -1) in kinds
    assert card(4, 2) in s1.private[0].cards and s1.extra.card_counts[0] == 5
    assert s1.extra.set_aside == (card(5),) and s1.hidden.cards == () and s1.seat_to_act == 1
    t = st(H3, deck=())
    t1, v = D.apply_shot_record(t, SHOT, record(t, hit=2))
    assert v.fouls and t1.extra.card_counts[0] == 4  # empty deck: nothing to draw


@pytest.mark.rule("CB-11")
@pytest.mark.parametrize("k", [1, 2])
def test_CB_11_ball_without_card_draws(k):
    s = st(H3, cfg=CardBallConfig(n_players=3, cb11_penalty_cards=k))
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=12, pocketed={12: 2, 2: 3}))  # correct + incorrect
    assert v.fouls[-1].kind is FoulKind.NO_CARD_FOR_BALL and v.fouls[-1].rule == "CB-11"
    assert s1.seat_to_act == 1 and s1.extra.card_counts[0] == 2 + k  # queens gone, k drawn
    assert s1.private[2].cards == (card(13),)  # the 2 left every hand (CB-5 "gone out")


@pytest.mark.rule("CB-12", "CB-10")
def test_CB_12_jumped_ball_foul_and_spotted():
    s = st(H3)
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, obj_rails=(2,), off_table=(13,)))
    assert v.fouls[0].kind is FoulKind.OBJECT_BALL_OFF_TABLE and v.fouls[0].rule == "CB-12"
    assert s1.on_table[13] and v.spotted == (13,) and s1.extra.card_counts[0] == 5
    assert s1.private[2].cards == tuple(H3[2])  # a spotted ball's rank stays live


@pytest.mark.rule("CB-13", "CB-10")
def test_CB_13_scratch_in_hand_kitchen():
    s = st(H3)
    s1, v = D.apply_shot_record(s, SHOT, record(s, hit=2, obj_rails=(2,), scratch=0))
    assert v.fouls[0].kind is FoulKind.SCRATCH and s1.cue_ball is CueBallPlacement.IN_HAND_KITCHEN
    assert s1.seat_to_act == 1 and "CB-13" in v.rule_refs and s1.extra.card_counts[0] == 5


@pytest.mark.rule("CB-7")
def test_CB_7_open_break():
    s = D.initial_state(CFG, seed=0)
    s, _ = D.apply(s, PlaceCueBall(0.6, 0.3))
    low = min(range(1, 16), key=lambda b: s.positions()[b, 1])
    _, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=low, obj_rails=(1, 2, 3)))
    assert v.fouls[-1].rule == "CB-7"
    _, v = D.apply_shot_record(s, ShotAction(8.0, 90.0), record(s, hit=low, obj_rails=(1, 2, 3, 4)))
    assert not v.fouls


@pytest.mark.rule("CB-8")
def test_CB_8_3_next_game_order():
    s = st(([], [card(8), card(2, 1), card(13)], [card(2), card(13, 1), card(6)]))
    s = s.replace(phase=Phase.GAME_OVER, winner=0, extra=CardBallExtra(card_counts=(0, 3, 3)))
    n = D.next_game(s)
    assert n.breaker == 0 and n.seat_to_act == 0 and n.order[0] == 0 and set(n.order) == {0, 1, 2}
    assert n.order == (0, 1, 2) or n.order == (0, 2, 1)
    assert all(len(h.cards) == 7 for h in n.private)


def test_public_hands_option_shows_every_hand():
    """C-33 option: with public hands every seat sees every hand (through the discipline)."""
    s = st(H3, cfg=CardBallConfig(n_players=3, public_hands=True))
    assert D.observe(s, 0).state.private == s.private and observe(s, 2).state.private == s.private
    assert D.observe(st(H3), 0).state.private[1] is None


def test_privacy_check_honours_public_hands(monkeypatch):
    """C-33: with ``public_hands`` the discipline says so (`private_shown`) and the privacy
    check then asks for every hand in every view and keeps only the chance state and the
    seed secret; without it every other hand must stay hidden, and a view that shows them
    fails the check."""
    from poolgym.rules.testing import perturb_secrets

    public = st(H3, cfg=CardBallConfig(n_players=3, public_hands=True))
    assert D.private_shown(public) and not D.private_shown(st(H3))
    check_privacy(public)
    check_privacy(st(H3))
    assert perturb_secrets(public, 0, private=False).private == public.private
    real = type(D).view
    monkeypatch.setattr(type(D), "view", lambda self, state, seat: real(self, state.replace(
        config=CardBallConfig(n_players=3, public_hands=True)), seat))
    with pytest.raises(AssertionError):
        check_privacy(st(H3))  # the hands shown although the rules keep them secret
