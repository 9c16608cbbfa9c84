"""One register per language, across each whole catalog: Spanish speaks to the reader as
*tú* (never *vos*: "buscá", "podés"; never *usted*: "vuelva", "su contraseña"), Catalan as
*tu* (never *vosaltres*: "torneu-ho", "heu"; never *vostè*: "el vostre"). The forms listed
are those a translator slips into; a word that is the same in both registers is not."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

# Voseo: its imperatives and presents, stressed on the last syllable ("buscá", "elegí"),
# and with a pronoun, unaccented where tú writes the accent ("confirmalo": confírmalo).
VOSEO = re.compile(
    r"\b(vos|sos|podés|tenés|querés|sabés|hacés|decís|venís|organizás|arbitrás|"
    r"buscá|ingresá|tocá|mirá|anotá|confirmá|indicá|descargá|agregá|cargá|revisá|probá|"
    r"elegí|uní|andá|poné|hacé|decí|vení|tené|volvé|escribí|abrí|"
    r"confirmal[oa]s?|corregil[oa]s?|unil[oa]s?|anotal[oa]s?|buscal[oa]s?)\b",
    re.IGNORECASE,
)
# Usted: its imperatives and its possessive where the reader is meant.
USTED = re.compile(
    r"\b(usted|ustedes|vuelva|espere|pida|hable|escriba|pulse|introduzca|seleccione|"
    r"inténtelo|compruebe|tome|siga|abra|póngalo)\b|(?<!por )\bsu (contraseña|cuenta)\b|"
    r"\bha olvidado\b|\blo que ha enviado\b|\bpuede deshacerlo\b",
    re.IGNORECASE,
)
# Catalan plural (vosaltres) and vostè forms addressed to the reader.
VOSALTRES = re.compile(
    r"\b(vostè|vostès|vostre|vostra|vostres|heu|podeu|teniu|voleu|sabeu|feu|trieu|"
    r"indiqueu|escriviu|torneu|espereu|confirmeu|fusioneu|cerqueu|baixeu|preneu|"
    r"parleu|configureu|gestioneu|continueu|corregiu|obriu|poseu|demaneu|inscriviu|"
    r"afegiu|mireu|proveu|canvieu|comproveu|anoteu|marqueu|envieu|tanqueu)\b",
    re.IGNORECASE,
)


def translations(language: str) -> list[tuple[str, str]]:
    """Each active entry's msgid and every msgstr of it, from the committed catalog."""
    path = settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"
    found: list[tuple[str, str]] = []
    field, parts = None, {}
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("#~"):
            continue
        match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$', line)
        if match:
            field = match.group(1)
            if field == "msgctxt" or (field == "msgid" and "msgid" in parts):
                found += [(parts.get("msgid", ""), v) for k, v in parts.items() if "msgstr" in k]
                parts = {}
            parts[field] = match.group(2)
        elif line.startswith('"') and field:
            parts[field] += line[1:-1]
        elif not line.strip():
            found += [(parts.get("msgid", ""), v) for k, v in parts.items() if "msgstr" in k]
            parts, field = {}, None
    return [(msgid, text) for msgid, text in found if msgid]


@pytest.mark.parametrize(("language", "forms"), [("es", VOSEO), ("es", USTED), ("ca", VOSALTRES)])
def test_one_register_per_language(language, forms):
    slips = [f"{msgid!r}: {text!r}" for msgid, text in translations(language) if forms.search(text)]
    assert slips == []


def test_the_scan_reads_the_whole_catalog():
    # Every entry, the long wrapped ones too.
    spanish = dict(translations("es"))
    assert len(spanish) > 1500
    assert spanish["Choose two different people."] == "Elige dos personas distintas."
