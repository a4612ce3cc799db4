from services.engine import cards as C
from tests.engine.builders import hand


def test_card_index_is_suit_times_13_plus_rank():
    assert C.parse_card("2C") == 0
    assert C.parse_card("AC") == 12
    assert C.parse_card("TD") == 13 + 8
    assert C.parse_card("AS") == 51


def test_every_code_round_trips():
    for index in range(52):
        assert C.parse_card(C.card_code(index)) == index


def test_bad_codes_are_refused():
    for bad in ["", "1S", "10S", "as", "QX", "QSS", None, 5]:
        assert not C.is_card_code(bad)


def test_codes_lists_a_set_low_to_high():
    assert C.codes(hand("AS", "2C", "TD")) == ["2C", "TD", "AS"]


def test_lowest_and_highest_by_rank_cross_suits():
    mask = hand("3S", "2H", "KD", "KC")
    assert C.card_code(C.lowest_by_rank(mask)) == "2H"
    assert C.card_code(C.highest_by_rank(mask)) == "KD"


def test_following_is_restricted_to_the_led_suit():
    mask = hand("2H", "KH", "AS", "3C")
    assert C.legal_cards(mask, C.HEARTS, spades_broken=False) == hand("2H", "KH")


def test_a_void_hand_may_play_anything():
    mask = hand("AS", "3C")
    assert C.legal_cards(mask, C.HEARTS, spades_broken=False) == mask


def test_leading_excludes_spades_until_broken():
    mask = hand("AS", "3C")
    assert C.legal_cards(mask, None, spades_broken=False) == hand("3C")
    assert C.legal_cards(mask, None, spades_broken=True) == mask


def test_a_hand_of_only_spades_may_lead_them():
    mask = hand("AS", "3S")
    assert C.legal_cards(mask, None, spades_broken=False) == mask


def test_highest_spade_wins_the_trick():
    trick = hand("AH", "2S", "KH", "3S")
    assert C.card_code(C.trick_winner_card(trick, C.HEARTS)) == "3S"


def test_without_spades_the_highest_of_the_led_suit_wins():
    trick = hand("9H", "AD", "KH", "2H")
    assert C.card_code(C.trick_winner_card(trick, C.HEARTS)) == "KH"


def test_beats_compares_within_suit_and_trumps():
    assert C.beats(C.parse_card("2S"), C.parse_card("AH"))
    assert not C.beats(C.parse_card("AD"), C.parse_card("2H"))
    assert C.beats(C.parse_card("3H"), C.parse_card("2H"))
