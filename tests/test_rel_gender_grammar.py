"""Issue 34 (gender): in Spanish, Portuguese and French an adjective or participle after a
first-person copula agrees with the speaker ("estoy cansada", "estou pronto", "je suis prête",
"je suis né"), negated or not; Portuguese "obrigada / obrigado" agrees too (a weaker hint). Not
someone else's ("mi hermana está cansada"), not a quotation, not a commenter's words."""
from __future__ import annotations

import pytest

from core.engine.rules import extract_cues
from tests.engine_user import run_profile


def _g(text: str) -> set[str]:
    return {c.value for c in extract_cues(text) if c.attribute == "gender" and c.first_person and not c.data.stance}


@pytest.mark.parametrize("text,gender", [
    ("Hoy estoy muy cansada, qué semana.", "female"),                   # es
    ("Ya estoy listo para el maratón del domingo.", "male"),            # es
    ("Me siento tan orgullosa de mi equipo.", "female"),                # es
    ("Estou pronta para a corrida!", "female"),                          # pt
    ("Fiquei tão animado com o jogo de ontem.", "male"),                 # pt
    ("Obrigada a todos pelo carinho!", "female"),                       # pt thanks
    ("Je suis prête pour demain.", "female"),                            # fr
    ("Je ne suis pas prête du tout.", "female"),                         # fr, negated: still agrees
    ("Je suis né à Lyon en 1988.", "male"),                              # fr participle
    ("Chuis crevé après cette journée.", "male"),                        # fr, spoken
])
def test_agreement_marks_the_speaker(text, gender):
    assert _g(text) == {gender}, (_g(text), text)


@pytest.mark.parametrize("text", [
    "Mi hermana está cansada de todo.",           # es: someone else
    "Ella dice que está cansada.",                # es
    "Soy solo un estudiante más.",                # es: solo is an adverb
    "La lista de la compra es eterna.",           # es: a noun
    "Estoy en casa.",                             # es: no adjective
    "A minha mãe está cansada.",                  # pt
    "Elle a dit : « je suis fatiguée de tout ça ».",   # fr: a quotation
    "Il est prêt pour demain.",                   # fr: third person
])
def test_no_agreement_of_the_speaker(text):
    assert not _g(text), (_g(text), text)


def test_a_commenters_agreement_is_theirs(tmp_path):
    posts = [{"timestamp": "2026-03-01T12:00:00+01:00", "caption": "Fin de la maratón, 4h12.",
              "comments": [{"author": "ana.r", "text": "¡Yo también estoy muy cansada!"}]}]
    assert "gender" not in run_profile(tmp_path / "a", posts)
    own = [{"timestamp": "2026-03-01T12:00:00+01:00", "caption": "Fin de la maratón, 4h12. Estoy muy cansada pero feliz."}]
    assert run_profile(tmp_path / "b", own).get("gender") == "female"
