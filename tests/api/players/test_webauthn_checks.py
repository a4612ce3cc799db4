"""The pure parts of passkeys: which origins a relying party takes (its list, or by default its own domain over
HTTPS and localhost over HTTP on any port), the settings read, the signature counter's rule, and an answer that
is no answer refused with its code before the library sees it."""

from __future__ import annotations

import pytest

from services.api.players.webauthn_checks import RelyingParty, check_counter, read_assertion, relying_party
from services.api.problems import ApiError
from tests.api.soft_authenticator import SoftAuthenticator


def code_of(call, *args) -> str:
    with pytest.raises(ApiError) as caught:
        call(*args)
    return caught.value.code


def test_by_default_localhost_answers_over_http_on_any_port_and_a_domain_only_over_https():
    local = relying_party("localhost", "", "")
    assert (local.id, local.name, local.origins) == ("localhost", "localhost", ())
    assert all(local.allows(o) for o in ("http://localhost", "http://localhost:8000", "https://localhost:1"))
    refused = ("http://127.0.0.1:8000", "http://localhost.evil.example", "http://localhost:8000/play",
               "http://localhost:x", "ftp://localhost", "http://user@localhost", "null", "")  # fmt: skip
    assert not any(local.allows(o) for o in refused)
    site = RelyingParty("spades.example", "Spades")
    assert site.allows("https://spades.example") and not site.allows("http://spades.example")
    assert not site.allows("https://www.spades.example")


def test_listed_origins_are_the_only_ones_taken():
    rp = relying_party(" Spades.Example ", "Spades", "https://spades.example/, https://play.spades.example")
    assert rp.id == "spades.example" and rp.origins == ("https://spades.example", "https://play.spades.example")
    assert rp.allows("https://play.spades.example") and not rp.allows("https://other.spades.example")


def test_the_counter_must_grow_unless_the_authenticator_keeps_none():
    check_counter(0, 0)  # no counter at all: every answer says 0
    check_counter(0, 1)
    check_counter(5, 6)
    for stored, answered in ((5, 5), (5, 4), (5, 0), (1, 0)):
        assert code_of(check_counter, stored, answered) == "passkey_counter_stale"


@pytest.mark.parametrize(
    "broken",
    [
        {},
        {"id": "AA", "rawId": "AA", "type": "public-key", "response": {}},
        {
            "id": "AA",
            "rawId": "AA",
            "type": "public-key",
            "response": {"clientDataJSON": "!!", "authenticatorData": "AA", "signature": "AA"},
        },
    ],
)
def test_an_answer_that_is_no_answer_is_refused_before_the_library_verifies(broken):
    assert code_of(read_assertion, broken, RelyingParty("localhost", "Spades")) == "passkey_invalid"


def test_a_registration_answer_is_not_a_sign_in_and_another_origin_is_refused_by_name():
    options = {"rp": {"id": "localhost"}, "user": {"id": "cA"}, "challenge": "AA", "rpId": "localhost"}
    phone = SoftAuthenticator("http://localhost:8000")
    assert code_of(read_assertion, phone.create(options), RelyingParty("localhost", "S")) == "passkey_invalid"
    elsewhere = phone.get(options, origin="https://evil.example")
    assert code_of(read_assertion, elsewhere, RelyingParty("localhost", "S")) == "passkey_origin_invalid"
