"""Card ball (BCA, shared/rules/card_ball.md, CB-n) for 2-6 seats.

* CB-2 two to six players; CB-3 balls 1-15 and a 52-card deck (cards 0..51, rank
  ``card // 4 + 1``: ace 1 ... king 13, CB-6; balls 14 and 15 have no card).
* CB-4 / C-30 standard triangle, random order.
* CB-8.2 seven cards dealt to every seat from the shuffled deck (state RNG): the hand is
  ``state.private[seat]`` (:class:`Hand`), the deck ``state.hidden`` (:class:`Deck`); the
  deal is public (``SeatEvent DEAL``), the cards are not (C-33 ``public_hands`` shows them).
  Card counts and set-aside cards are public (``extra``).
* CB-5 / CB-8.1 a seat with no card left wins. CB-8.4 a ball pocketed (by anyone, legally
  or not) removes every card of its rank from every hand (the shooter's first).
* CB-8.7 / C-31 several hands empty on one shot: the shooter wins if among them, else
  the high-card draw among them (a uniform draw from the state's RNG).
* CB-7 open break (C-26); failing it is an illegal shot (CB-9).
* CB-9 legal shot: any first contact, then pocket a ball of one's own cards, pocket the 14
  or 15, or drive any ball to a cushion after the contact; a violation draws a card.
* CB-10 one card for an illegal shot, a scratch, a jumped ball, a cue ball off the table;
  CB-11 one card (C-32 ``cb11_penalty_cards``) for pocketing a ball without its card,
  also together with a correct one. At most one penalty per inning, the most severe (CB-9):
  the penalty draws ``max`` of the cards due. A drawn card whose ball is off the table is
  set aside (public) and the next one is drawn (CB-9).
* CB-8.5 the shooter continues while he pockets his balls (C-34: the 14 and 15 too,
  ``pot_14_15_continues``); a foul, a ball without its card or a miss passes the turn.
* CB-12 a jumped object ball is a foul and is spotted (G-3.32) before the penalty draw.
* CB-13 cue ball pocketed or off: the next seat has it in hand behind the head string.
* CB-1 / C-29 result: every loser pays ``card_value`` per card left to the winner
  (``state.scores`` at the end; zero-sum).
* CB-8.3 next game: the winner breaks; fewest cards first, most cards last, ties by the
  highest card (:meth:`CardBall.next_game`).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .. import serialize
from ..core import CueBallPlacement, EventType, Foul, FoulKind, GameState, Phase, SeatEvent, Verdict
from ..general import add_foul, clear_fouls
from ..seats import SeatView, draw_from, draw_with, order_of, view_of
from .bca import BCAConfig, BCAGame, replace_extra, triangle_rack

__all__ = ["CardBall", "CardBallConfig", "CardBallExtra", "Hand", "Deck", "rank", "HAND_SIZE"]

HAND_SIZE = 7
AUX_BALLS = (14, 15)


def rank(card: int) -> int:
    """CB-6: the ball of a card (ace 1 ... king 13)."""
    return card // 4 + 1


@functools.lru_cache(maxsize=4096)
def _hand_balls(cards: tuple) -> tuple:
    """The balls of the ranks in ``cards``, ascending, each once (memoised: hands recur)."""
    return tuple(sorted({(c // 4 + 1) for c in cards}))


@functools.lru_cache(maxsize=4096)
def _ball_set(cards: tuple) -> frozenset:
    return frozenset(c // 4 + 1 for c in cards)


@functools.lru_cache(maxsize=4096)
def _useful_set(cards: tuple) -> frozenset:
    """The balls of the ranks in ``cards`` and the 14 and 15 (memoised: hands recur)."""
    return _ball_set(cards) | frozenset(AUX_BALLS)


def _hand_ball_set(cards) -> frozenset:
    """The balls of the ranks in ``cards`` as a frozenset (memoised for a tuple of cards)."""
    return _ball_set(cards) if type(cards) is tuple else frozenset(c // 4 + 1 for c in cards)


#: a hidden hand in `CardBall.score_features`
_NO_RANKS = [0.0] * 13


@dataclass(frozen=True)
class CardBallConfig(BCAConfig):
    """Card ball knobs (card_ball.md section 5). n_players 2-6 (default 4, CB-2)."""

    n_players: int = 4
    card_value: int = 1
    public_hands: bool = False
    pot_14_15_continues: bool = True
    cb11_penalty_cards: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.card_value, int) or self.card_value < 0:
            raise ValueError(f"card_value must be a non-negative int, got {self.card_value!r}")
        if self.cb11_penalty_cards not in (1, 2):
            raise ValueError(f"cb11_penalty_cards must be 1 or 2, got {self.cb11_penalty_cards!r}")


@dataclass(frozen=True)
class Hand:
    """A seat's cards (ascending card ids)."""

    cards: tuple = ()


@dataclass(frozen=True)
class Deck:
    """Cards not dealt yet (known to no seat)."""

    cards: tuple = ()


@dataclass(frozen=True)
class CardBallExtra:
    """card_counts: cards in each hand (public). set_aside: cards set aside because their
    ball was off the table (public, CB-9)."""

    card_counts: tuple = ()
    set_aside: tuple = ()


serialize.register(CardBallConfig, Hand, Deck, CardBallExtra)

F_ILLEGAL = Foul(FoulKind.NO_RAIL_AFTER_CONTACT, "CB-9")
F_OPEN_BREAK = Foul(FoulKind.ILLEGAL_BREAK, "CB-7")
F_NO_CARD = Foul(FoulKind.NO_CARD_FOR_BALL, "CB-11")


class CardBall(BCAGame):
    """Card ball referee (module docstring)."""

    name = "card_ball"
    rules_file = "card_ball.md"
    config_cls = CardBallConfig
    allowed_players = (2, 3, 4, 5, 6)
    legal_shot_rule = "CB-9"
    jumped_is_foul = True
    jumped_rule = "CB-12"

    def rack(self, config, rng):
        """CB-4 / C-30: standard triangle, random order."""
        return triangle_rack(config, rng)

    def initial_extra(self, config):
        return CardBallExtra(card_counts=(HAND_SIZE,) * config.n_players)

    def useful_balls(self, state: GameState, seat: int) -> tuple:
        """CB-8.1 / CB-8.4 / CB-8.6 / CB-11: the balls of the seat's own cards and the 14 and
        15 (the ones it may pocket without a penalty card), on the table."""
        private = state.private[seat]
        if private is not None and type(private.cards) is tuple and type(self).secret_balls is CardBall.secret_balls:
            want = _useful_set(private.cards)
        else:
            want = set(self.secret_balls(private)) | set(AUX_BALLS)
        return tuple(filter(want.__contains__, state.balls_on_table()))

    def secret_balls(self, private) -> tuple:
        """CB-6: the balls of the ranks in a hand (ascending, each once) -- what the seat
        wants pocketed; the envs show a seat its own hand this way."""
        if private is None:
            return ()
        cards = private.cards
        return _hand_balls(cards) if type(cards) is tuple else tuple(sorted({rank(c) for c in cards}))

    def setup_seats(self, state: GameState) -> GameState:
        """CB-8.2: seven cards to each seat in order of play."""
        n = state.n_players
        drawn, rest, s = draw_from(state, range(52), HAND_SIZE * n)
        order = order_of(state)
        hands = [None] * n
        for k, seat in enumerate(order):
            hands[seat] = Hand(tuple(sorted(drawn[k * HAND_SIZE:(k + 1) * HAND_SIZE])))
        return s.replace(private=tuple(hands), hidden=Deck(tuple(sorted(rest))),
                         history=tuple(SeatEvent(EventType.DEAL, seat, HAND_SIZE) for seat in order))

    def rail_required(self, state):
        return False  # CB-9 replaces G-3.19 (checked in adjudicate)

    #: observation block (`poolgym.envs.scoring`): card counts of six seats, then the
    #: ranks held by the five others
    n_score_features = 6 + 5 * 13

    def score_features(self, state: GameState, seat: int) -> tuple:
        """Observation block, from ``seat``'s view (:meth:`observe`): the number of cards of
        every seat (public, CB-8.4; / HAND_SIZE), observer first then the next seats by
        number (0 for no such seat); then for each of the next five seats, per rank 1-13
        (ace ... king, CB-6) the cards of that rank in its hand / 4 -- known only when the
        hands are public (C-33 ``public_hands``); a hidden hand reads as zeros."""
        n = state.n_players
        if not isinstance(seat, int) or not (0 <= seat < n):
            raise ValueError(f"seat must be an int in [0, {n}), got {seat!r}")
        counts = state.extra.card_counts
        out = [counts[(seat + i) % n] / HAND_SIZE if i < n else 0.0 for i in range(6)]
        # the others' hands as `observe` shows them to ``seat``: only when public (C-33)
        hands = state.private if state.config.public_hands else ()
        for i in range(1, 6):
            hand = hands[(seat + i) % n] if i < n and hands else None
            if hand is None:
                out += _NO_RANKS
                continue
            row = [0.0] * 13
            for c in hand.cards:
                row[c // 4] += 0.25
            out += row
        return tuple(out)

    def score_features_batch(self, states, seats) -> np.ndarray:
        """(B, n_score_features) :meth:`score_features` of every (state, seat) pair (the same
        values): the card counts as one array operation; hands shown (C-33 ``public_hands``)
        are read row by row."""
        B = len(states)
        out = np.zeros((B, self.n_score_features))
        if not B:
            return out
        n = states[0].n_players
        if any(st.config.public_hands or st.n_players != n for st in states) or not all(
                type(k) is int and 0 <= k < n for k in seats):
            for i, (st, k) in enumerate(zip(states, seats)):
                out[i] = self.score_features(st, k)
            return out
        seat_a = np.asarray(seats, np.int64)
        counts = np.array([st.extra.card_counts for st in states], np.int64).reshape(B, n)
        m = min(6, n)
        idx = (seat_a[:, None] + np.arange(m)[None, :]) % n
        out[:, :m] = counts[np.arange(B)[:, None], idx] / HAND_SIZE
        return out

    def observe(self, state: GameState, seat: int) -> SeatView:
        """C-33: hands are private unless ``public_hands``."""
        view, own = self.view(state, seat)
        return SeatView(seat=seat, state=view, private=own)

    def private_shown(self, state: GameState) -> bool:
        """C-33: ``public_hands`` shows every hand to every seat."""
        return bool(state.config.public_hands)

    def view(self, state: GameState, seat: int) -> tuple:
        """:meth:`observe`'s (state, own hand), without the `SeatView`."""
        view, own = view_of(state, seat)
        if self.private_shown(state):
            view = view._evolve({"private": state.private})
        return view, own

    # ------------------------------------------------------------------ shots
    def adjudicate(self, state, action, rec):
        cfg: CardBallConfig = state.config
        out = self.analyse(state, action, rec)
        seat = out.seat
        n = state.n_players
        pocketed = out.pocketed
        if pocketed:
            own_ranks = _hand_ball_set(state.private[seat].cards)
            good = tuple(b for b in pocketed if b in own_ranks)
            aux = tuple(b for b in pocketed if b in AUX_BALLS)
            wrong = tuple(b for b in pocketed if b not in own_ranks and b not in AUX_BALLS)
        else:
            good = aux = wrong = ()
        fouls = list(out.fouls)
        if out.first is not None and not good and not aux and not out.rail_after_contact:
            fouls.append(F_ILLEGAL)  # CB-9
        if out.is_break and not out.open_break:
            fouls.append(F_OPEN_BREAK)  # CB-7
        cards_due = 1 if fouls else 0  # CB-10
        if wrong:
            fouls.append(F_NO_CARD)  # CB-11
            cards_due = max(cards_due, cfg.cb11_penalty_cards)
        refs = []
        events = []
        # CB-12: jumped balls are spotted
        if out.jumped:
            pos, on = self.spotted(state, out.pos, out.on, out.jumped)
            refs.append("CB-12")
        else:
            pos, on = out.pos, out.on
        # CB-8.4: every hand discards the ranks of the pocketed balls (the shooter's first)
        hands = state.private
        if pocketed:
            gone_ranks = frozenset(pocketed)
            hands = list(hands)
            order = order_of(state)
            i = order.index(seat)
            for k in order[i:] + order[:i]:
                cards = hands[k].cards
                if gone_ranks.isdisjoint(_hand_ball_set(cards)):
                    continue  # no card of a pocketed rank: the hand is kept as it is
                keep = tuple(c for c in cards if (c // 4 + 1) not in gone_ranks)
                gone = len(cards) - len(keep)
                if gone:
                    hands[k] = Hand(keep)
                    events.append(SeatEvent(EventType.DISCARD, k, gone))
            hands = tuple(hands)
        if events:
            refs.append("CB-8")
        counts = tuple([len(h.cards) for h in hands])
        fields = {"pos": pos, "on_table": on, "shot_number": state.shot_number + 1, "options": (),
                  "private": hands, "cue_placed": False,
                  "extra": replace_extra(state.extra, card_counts=counts)}
        # CB-5 / CB-8.7: an empty hand wins
        out_seats = [k for k in range(n) if counts[k] == 0] if 0 in counts else []
        if out_seats:
            s = state._evolve(fields)
            if seat in out_seats:
                w = seat
            elif len(out_seats) == 1:
                w = out_seats[0]
            else:
                (w,), _, s = draw_from(s, out_seats, 1)
                events.append(SeatEvent(EventType.TIE_DRAW, w))
            pts = self._payments(s, w)
            s = self.finish(s, {"scores": pts, "history": s.history + tuple(events), "seat_to_act": w}, w)
            return s, Verdict(fouls=tuple(fouls), legal_pocketed=good + aux, pocketed=out.pocketed, points=pts,
                              next_seat=w, spotted=tuple(sorted(out.jumped)), game_over=True, winner=w,
                              rule_refs=tuple(refs) + ("CB-5", "CB-1"), events=tuple(events))
        # CB-9 / CB-10 / CB-11: the penalty draw
        if cards_due:
            fields.update(self._penalty(state.rng, state.hidden.cards, hands, counts, state.extra, on,
                                        seat, cards_due, events))
            refs += ["CB-9"] + (["CB-10"] if cards_due and (fouls[0] is not F_NO_CARD) else []) + \
                (["CB-11"] if wrong else [])
        cont = not fouls and (bool(good) or (bool(aux) and cfg.pot_14_15_continues))
        cue = CueBallPlacement.IN_HAND_KITCHEN if out.cue_down else CueBallPlacement.IN_POSITION
        fields.update(cue_ball=cue, phase=Phase.PLAY, history=state.history + tuple(events),
                      consecutive_fouls=add_foul(state.consecutive_fouls, seat) if fouls else
                      clear_fouls(state.consecutive_fouls, seat))
        if out.cue_down:
            fields["on_table"] = self.cue_off(on)
            refs.append("CB-13")
        play_next = seat if cont else self.next_seat_of(state, seat)
        fields.update(seat_to_act=play_next, inning=state.inning + (0 if cont else 1))
        if cont:
            refs.append("CB-8")
        s = state._evolve(fields)
        return s, Verdict._fast(fouls=tuple(fouls), legal_pocketed=() if fouls else good + aux,
                                pocketed=out.pocketed, points=(0,) * n, next_seat=play_next, cue_ball=cue,
                                spotted=tuple(sorted(out.jumped)), turn_continues=cont,
                                rule_refs=tuple(dict.fromkeys(refs)), events=tuple(events))

    @staticmethod
    def _penalty(rng: tuple, deck: tuple, hands: tuple, counts: tuple, extra: CardBallExtra, on: tuple, seat: int,
                 k: int, events: list) -> dict:
        """CB-9: ``seat`` draws ``k`` cards from ``deck`` with the RNG tuple ``rng``; a card
        whose ball is off the table (``on``) is set aside and the next one drawn. An empty
        deck ends the draw. Appends the draw's events to ``events``; returns the state
        changes (``rng``, ``hidden``, ``private``, ``extra``)."""
        hand = list(hands[seat].cards)
        aside = list(extra.set_aside)
        got = 0
        while got < k and deck:
            (c,), deck, rng = draw_with(rng, deck, 1)
            if not on[(c // 4 + 1)]:
                aside.append(c)
                events.append(SeatEvent(EventType.SET_ASIDE, seat, c))
                continue
            hand.append(c)
            events.append(SeatEvent(EventType.DRAW_CARD, seat))
            got += 1
        priv = list(hands)
        priv[seat] = Hand(tuple(sorted(hand)))
        cnt = list(counts)
        cnt[seat] = len(hand)
        return {"rng": rng, "private": tuple(priv), "hidden": Deck(deck),
                "extra": replace_extra(extra, card_counts=tuple(cnt), set_aside=tuple(aside))}

    def _payments(self, state: GameState, winner: int) -> tuple:
        """CB-1 / C-29: each loser pays card_value per card left to the winner."""
        v = state.config.card_value
        counts = state.extra.card_counts
        pts = [-v * counts[k] for k in range(state.n_players)]
        pts[winner] = v * sum(counts[k] for k in range(state.n_players) if k != winner)
        return tuple(pts)

    # ------------------------------------------------------------------ results
    def returns(self, state: GameState) -> tuple:
        """CB-1: the card payments (zero-sum); zeros for a game stopped without a winner."""
        if state.phase is not Phase.GAME_OVER:
            return (0.0,) * state.n_players
        return tuple(float(v) for v in state.scores)

    def next_game(self, state: GameState, seed: Optional[int] = None) -> GameState:
        """CB-8.3: the winner breaks; then fewest cards first, most cards last (ties: the
        holder of the highest card first)."""
        new = super().next_game(state, seed)
        if state.winner is None:
            return new
        counts = state.extra.card_counts

        def key(k):
            top = max((rank(c) for c in state.private[k].cards), default=0)
            return (k != state.winner, counts[k], -top, k)

        order = tuple(sorted(range(state.n_players), key=key))
        s = new.replace(order=order, seat_to_act=state.winner, breaker=state.winner)
        return s
