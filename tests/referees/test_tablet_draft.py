"""The tablet keeps the hand on the server: resumed anywhere, one device at a time, stale
changes refused; the table's layout (fixed sides, one-tap team mazo) and its markup."""

from __future__ import annotations

import json
import re
import threading

import pytest
from django.db import connection, connections
from django.test import Client

from referees.views import DEVICE_COOKIE
from tests.referees.conftest import Tablet, key, make_match
from tests.tournaments.factories import RefereeFactory
from tournaments import signals
from tournaments.errors import TournamentError
from tournaments.models import Hand, HandDraft
from tournaments.results import drafts
from tournaments.results import services as result_services


def second_tablet(referee, match) -> Tablet:
    """Another browser of the same referee: its own session and device cookie."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(referee)
    return Tablet(client, match)


def test_a_hand_in_progress_is_resumed_when_the_sheet_is_reopened(started, tablet):
    page = tablet(started)
    assert page.client.cookies[DEVICE_COOKIE].value  # this browser is a device now
    page.tap("Ana calls truco")
    assert page.sync == "saved"
    draft = HandDraft.objects.get(match=started)
    assert draft.record == {"events": [{"by": key(started, "Ana"), "call": "truco"}]}
    assert draft.device == page.client.cookies[DEVICE_COOKIE].value
    # From "my matches" or a bookmark: the same hand, where it was.
    again = tablet(started)
    assert again.events == draft.record
    assert "Beto: quiero" in again.buttons()
    assert again.sync == "saved"
    again.tap("Beto: quiero")
    again.tap("Trick to Ana and Alba")
    again.tap("Trick to Ana and Alba")
    again.save()
    assert Hand.objects.get(match=started).record["events"][0]["call"] == "truco"
    # The saved hand empties the draft: hand 2 starts blank, on the same device.
    draft.refresh_from_db()
    assert (draft.number, draft.record) == (2, {})
    assert again.events == {"events": []}
    # Nothing entered yet is nothing to keep: the blank hand reads as saved, not waiting.
    assert tablet(started).sync == "saved"


def test_a_second_device_must_take_over_and_then_resumes_the_hand(started, tablet, referee):
    first = tablet(started)
    first.tap("Ana calls envido")
    other = second_tablet(referee, started).open()
    assert "Another device is entering this match (since" in other.page
    assert other.buttons() == {}  # nothing to tap until it takes over
    assert "Ana calls envido" in other.page  # but the hand so far is shown
    other.op("takeover", status=302)
    other.open()
    assert "Another device" not in other.page
    assert other.events == {"events": [{"by": key(started, "Ana"), "call": "envido"}]}
    other.tap("Beto: quiero")
    assert HandDraft.objects.get(match=started).device == other.client.cookies[DEVICE_COOKIE].value

    # The first tablet's page is now out of date: its next tap is refused, nothing merged.
    first.tap("Beto: no quiero", status=409)
    assert "Another device is entering this match" in first.page
    assert HandDraft.objects.get(match=started).record["events"][-1]["answer"] == "quiero"


def test_a_decided_hand_from_a_device_that_lost_the_match_is_not_saved(started, tablet, referee):
    first = tablet(started)
    first.tap("Trick to Ana and Alba")
    first.tap("Trick to Ana and Alba")
    other = second_tablet(referee, started).open()
    other.op("takeover", status=302)
    first.op("save", status=409)
    assert "Another device is entering this match" in first.page
    assert not Hand.objects.exists()


def test_a_take_over_from_a_stale_page_is_refused(started, tablet, referee):
    first = tablet(started)
    first.tap("Ana calls truco")
    other = second_tablet(referee, started).open()
    other.op("takeover", status=302)
    other.open()
    other.tap("Beto: quiero")
    # The first tablet takes the match back from the page it showed before that change.
    first.post({"op": "takeover", "revision": "1"}, status=302)
    first.open()
    messages = first.page
    assert "changed on another device" in messages
    draft = HandDraft.objects.get(match=started)
    assert draft.device == other.client.cookies[DEVICE_COOKIE].value
    assert draft.record["events"][-1]["answer"] == "quiero"


def test_every_action_carries_its_event_and_the_save_its_op(started, tablet):
    page = tablet(started)
    buttons = re.findall(r'<button[^>]*name="action"[^>]*>', page.raw)
    assert buttons
    for button in buttons:
        value = re.search(r'value="([^"]*)"', button).group(1)
        event = re.search(r'data-event="([^"]*)"', button).group(1)
        assert event == value
        parsed = json.loads(event.replace("&quot;", '"'))
        assert json.dumps(parsed, separators=(",", ":")) == event.replace("&quot;", '"')
    assert '{"by":"' + key(started, "Ana") + '","call":"real_envido"}' in page.buttons().values()
    page.tap("Trick to Ana and Alba")
    page.tap("Trick to Ana and Alba")
    assert re.search(r'<button[^>]*value="save" data-op="save"', page.raw)


def test_the_page_carries_what_the_tablets_script_needs(started, tablet):
    page = tablet(started)
    page.tap("Ana calls truco")
    context = page.context
    assert context["match"] == started.pk
    assert context["number"] == 1
    assert context["entry"] == "quick"
    assert context["device"] == page.client.cookies[DEVICE_COOKIE].value
    assert context["next_hand"]["mano"] == key(started, "Ana")
    assert context["next_hand"]["score"] == {"A": 0, "B": 0}
    assert context["head"]["teams"]["A"] == [key(started, "Ana"), key(started, "Alba")]
    assert context["draft"]["revision"] == 1
    assert context["draft"]["record"]["events"][0]["call"] == "truco"
    assert context["urls"]["draft"] == f"/api/v1/matches/{started.pk}/draft/"
    assert context["urls"]["hands"] == f"/api/v1/matches/{started.pk}/hands/"
    assert context["players"][key(started, "Beto")] == "Beto"
    assert context["teams"] == {"A": "Los Anchos", "B": "Las Flores"}
    assert context["labels"]["call_names"]["truco"] == "truco"
    assert context["labels"]["sync"]["offline"]


def test_the_sides_keep_their_places_and_the_mano_is_marked(started, tablet):
    def columns(page: Tablet) -> list[tuple[str, list[str]]]:
        found = []
        for side, body in re.findall(
            r'<div class="side-column side-column--(\w)"'
            r"(.*?)(?=<div class=\"side-column|</fieldset>)",
            page.raw,
            re.S,
        ):
            found.append((side, re.findall(r'data-player="(p\d+)"', body)))
        return found

    page = tablet(started)
    ana, alba, beto, bruno = (key(started, n) for n in ("Ana", "Alba", "Beto", "Bruno"))
    assert columns(page) == [("A", [ana, alba]), ("B", [beto, bruno])]
    assert re.search(rf'player-card--mano" data-player="{ana}"', page.raw)
    page.tap("Trick to Ana and Alba")
    page.tap("Trick to Ana and Alba")
    page.save()
    # Hand 2: Beto is mano; nobody moved.
    assert columns(page) == [("A", [ana, alba]), ("B", [beto, bruno])]
    assert re.search(rf'player-card--mano" data-player="{beto}"', page.raw)


def test_a_team_goes_to_the_mazo_in_one_tap(started, tablet):
    page = tablet(started)
    page.tap("Las Flores go to the mazo")
    beto, bruno = key(started, "Beto"), key(started, "Bruno")
    assert page.events["events"] == [{"by": beto, "mazo": True}, {"by": bruno, "mazo": True}]
    page.save()
    hand = Hand.objects.get()
    # Before the first trick and with no envido sung the engine counts 2 (docs/rules.md).
    assert (hand.points_a, hand.points_b) == (2, 0)


def test_a_tampered_team_mazo_is_refused(started, tablet):
    page = tablet(started)
    page.post({"action": json.dumps([{"by": "p999", "mazo": True}])}, status=400)
    assert page.events == {"events": []}


def test_the_malas_and_buenas_stay_on_the_sheet(started, tablet):
    page = tablet(started)
    assert "scoreboard--sticky" in page.raw
    assert "0 malas" in page.page


def test_a_tap_is_announced_to_the_live_pages(started, tablet, django_capture_on_commit_callbacks):
    heard = []

    def listener(**kwargs):
        heard.append(kwargs["what"])

    page = tablet(started)
    signals.changed.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            page.tap("Ana calls truco")
    finally:
        signals.changed.disconnect(listener)
    assert heard == ["draft"]


def test_a_championship_not_in_play_keeps_nothing_and_says_so(started, tablet):
    championship = started.stage.championship
    championship.status = "finished"
    championship.save(update_fields=["status"])
    page = tablet(started)
    page.tap("Ana calls truco")
    assert page.sync == "pending"
    assert page.events["events"][0]["call"] == "truco"
    assert not HandDraft.objects.exists()


def test_a_hand_entered_card_by_card(referee, tablet):
    match = make_match(referee=referee, teams=(("Ana",), ("Beto",)))
    result_services.match_assign(match=match, entry="cards")
    result_services.match_start(match=match)
    page = tablet(match)
    ana, beto = key(match, "Ana"), key(match, "Beto")
    assert "Trick to Ana" not in page.buttons()  # cards, not trick winners
    assert "Ana plays" in page.page
    page.op("cards", **{f"cards-{ana}": "7E 6E 1O", f"cards-{beto}": "4c, 5C 3O"})
    dealt = {ana: ["7E", "6E", "1O"], beto: ["4C", "5C", "3O"]}
    assert page.events == {"events": [], "cards": dealt}
    # Ana, the mano, plays first: only her three cards are offered.
    assert sorted(b for b in page.buttons() if " of " in b) == [
        "1 of coins",
        "6 of swords",
        "7 of swords",
    ]
    page.tap("Ana calls envido")
    page.tap("Beto: quiero")  # the cards settle it: Ana 33 against Beto 9
    assert "Who won the envido?" not in page.page
    for card in ("7 of swords", "4 of cups", "6 of swords", "5 of cups"):
        page.tap(card)
    assert HandDraft.objects.get(match=match).record["events"][-1] == {"by": beto, "play": "5C"}
    page.save()
    hand = Hand.objects.get()
    assert hand.record["cards"][ana] == ["7E", "6E", "1O"]
    assert [e.get("play") for e in hand.record["events"] if "play" in e] == ["7E", "4C", "6E", "5C"]
    assert (hand.points_a, hand.points_b) == (3, 0)  # envido 2 and the hand 1


def test_cards_as_played_without_the_deal(referee, tablet):
    match = make_match(referee=referee, teams=(("Ana",), ("Beto",)))
    result_services.match_assign(match=match, entry="cards")
    result_services.match_start(match=match)
    page = tablet(match)
    plays = [b for b in page.buttons() if " of " in b]
    assert len(plays) == 40  # any card of the Spanish deck
    page.tap("1 of swords")
    assert "1 of swords" not in page.buttons()  # played: not offered again
    page.op("cards", **{f"cards-{key(match, 'Beto')}": "1E 2E 3E"}, status=400)
    assert "1E" in page.page or "appears" in page.page or "not" in page.page
    page.op("cards", **{f"cards-{key(match, 'Beto')}": "1E 2E"})
    assert "Write three cards" in page.page


@pytest.mark.django_db(transaction=True)
def test_two_devices_saving_at_once_one_wins_nothing_merged():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    referee = RefereeFactory()
    match = result_services.match_start(match=make_match(referee=referee))
    mano = match.seats[0]
    records = {
        "tab-1": {"events": [{"by": mano, "call": "truco"}]},
        "tab-2": {"events": [{"by": mano, "call": "envido"}]},
    }
    barrier = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def device(name: str) -> None:
        try:
            barrier.wait()
            drafts.draft_save(
                match=match, number=1, record=records[name], device=name, revision=0, by=referee
            )
            outcomes[name] = "stored"
        except TournamentError as error:
            outcomes[name] = error.code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=device, args=(name,)) for name in records]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes.values()) == ["draft_other_device", "stored"]
    winner = next(name for name, outcome in outcomes.items() if outcome == "stored")
    draft = HandDraft.objects.get(match=match)
    assert (draft.device, draft.revision, draft.record) == (winner, 1, records[winner])
