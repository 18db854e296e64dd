"""A fixed-length vector of numbers for what one seat sees: the observation encoder.

Learning and search libraries (the OpenSpiel and PettingZoo adapters) want a
flat list of numbers of a fixed length per game configuration.
:func:`observation_encoder` builds, once per configuration (board, player
count, variants, options), an :class:`ObservationEncoder` whose
:meth:`~ObservationEncoder.encode` turns a :class:`~ttr_core.PlayerView` into
such a list::

    encoder = observation_encoder(state.board, state.num_players, state.rules.variants)
    vector = encoder.encode(player_view(state, seat))      # len(vector) == encoder.size
    dict(zip(encoder.names, vector))                        # feature name -> value

Pure Python, no numpy. It reads **only the view**, so it cannot leak what the
seat may not see: two states the seat cannot tell apart (the same view) give
the same vector.

:meth:`~ObservationEncoder.encode_state` gives the same vector from a state
and a seat, ``encoder.encode_state(state, seat) == encoder.encode(player_view(state,
seat))``, 1.5 to 1.7 times as fast: it reads of the state only what the view would
show, without building the view (OpenSpiel's ``python_ttr`` uses it for a
deal not played yet; a test compares the two on every seat of random
games). The board's constants the vector is scaled by are worked out once
per encoder.

An :class:`ObservationTracker` (``encoder.tracker(seat)``) keeps one seat's
vector of a :class:`~ttr_core.Playout` up to date as the game is played:
each :meth:`~ObservationTracker.update` reads the playout's working state
(no frozen state, no view) and writes again only the numbers of the parts
whose inputs changed, into a list of floats and an ``array.array('f')``
that NumPy can view without a copy. Its vector is ``encode_state``'s, number
for number. The PettingZoo environment and OpenSpiel's observer observe
through one per seat::

    play = Playout.new("newyork", 2, seed=1)
    tracker = encoder.tracker(0)
    tracker.update(play)    # tracker.values == encoder.encode_state(play.snapshot(), 0)
    play.apply(play.legal_actions()[0])
    tracker.update(play)    # only what the action changed is written

Layout
======

Features come in this order; ``encoder.names`` names each one. "Relative"
means seat ``(viewer + k) % players`` is written at position ``k``: position
0 is always the viewer, 1 the next seat to play, and so on. Numbers are
scaled to about ``[0, 1]`` by a natural maximum (given in brackets).

======================================  ================================================
names                                   value
======================================  ================================================
``seat[i]``                             one-hot: the viewer's seat number
``to_move[+k]``                         one-hot: the seat deciding, relative (all 0
                                        once the game is over)
``pending[kind]``                       one-hot over the core decision kinds
                                        (``start_tickets``, ``turn``,
                                        ``second_card``, ``keep_tickets``) and
                                        ``other`` (a variant's own kind); all 0 once
                                        over
``is_over``                             1 once the game has ended
``hand[card]``                          own cards of each kind [that card's count in
                                        the game]
``my_ticket[t]``                        multi-hot over the map's tickets: tickets kept
``offered[t]``                          multi-hot: tickets on offer to the viewer (its
                                        own pending choice only)
``min_keep``                            how many of them must be kept [largest offer]
``offer_size``                          tickets on offer in the pending choice,
                                        whoever decides [largest offer]
``display[card]``                       face-up cards of each kind [display size]
``deck_size``, ``discard_size``         card piles [cards in the game]
``ticket_deck_size``,                   ticket piles [tickets on the map]
``ticket_discard_size``
``ticket_discard[t]``                   multi-hot: the face-up ticket discard pile
``seat[+k].cars``                       per seat, relative: cars left [cars per player]
``seat[+k].hand_size``                  cards in hand [cards in the game]
``seat[+k].tickets``                    tickets held [tickets on the map]
``seat[+k].score``                      running score [points of every route on the
                                        map]; may be negative
``seat[+k].known[card]``                cards every player knows it holds (taken face
                                        up) [that card's count in the game]
``route[r].owner[+k]``                  per route, one-hot: owned by the seat ``+k``
                                        (relative)
``route[r].owner[other]``               owned by someone who is not a seat (a neutral
                                        player); all 0: unclaimed
``final_round``                         1 once the final round has begun
``final_turns``                         turns left in it [players]; 0 before it
``turn``                                turns played [2 × players × cars per player,
                                        more than most games last]: may pass 1
``passes``                              consecutive passes [players]
``variant:KEY`` / ``variant:KEY[i]``    variant state the view shows (below)
======================================  ================================================

Variant state
=============

Variants are encoded generically, without naming any: the view's
``variants`` mapping is read in sorted key order. The configuration's
*first view* (seat 0's view of a new game with seed 0) fixes which keys are
encoded and their shape:

* a number (``int``, ``float`` or ``bool``) is one feature ``variant:KEY``;
* a tuple of numbers is one feature per element, ``variant:KEY[i]``;
* anything else (``None``, strings, nested tuples, mappings, objects) is
  **not encoded**; such keys are listed in ``encoder.skipped``. So is a key
  that first appears in later views.

Encoded keys that share a prefix before the first dot (by convention the
keys of one variant, ``tolls.holdings`` and ``tolls.loans``) are divided by
one scale: the largest absolute number any of them had in the first view
(at least 1). So a count that starts full (a deck of merchandise cards, a
toll value) starts at 1 and the counts drawn from it stay within about
``[0, 1]``. A later view in which an encoded key is
missing or has another shape (a different length, a non-number) raises
:class:`ObservationError`, a :class:`~ttr_core.TtrError`.

Not encoded
===========

What the view shows that is left out: the game's seed and the deck order
(never shown), the start offers of other seats (only sizes, which the
engine shows as ``start_offer_sizes``: left out), ``shuffles``, how the game
ended (stalemate or cars) beyond ``is_over``, the order in which routes were
claimed, and whatever a variant shows in a form listed above as not encoded.
The history of play is not in the view either: an agent that needs it keeps
its own (the OpenSpiel adapter's information state adds it).
"""

from __future__ import annotations

from ttr_core.observation.encoder import (
    ObservationEncoder,
    ObservationError,
    ObservationTracker,
    encoder_for_view,
    observation_encoder,
)

__all__ = [
    "ObservationEncoder",
    "ObservationError",
    "ObservationTracker",
    "encoder_for_view",
    "observation_encoder",
]
