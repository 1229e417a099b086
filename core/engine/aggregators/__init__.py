"""The hypothesizer's aggregators, each a small module declaring what it consumes and produces
(see registry.py for the input names and how the order is derived).

  documents  contacts, receipt_venues, badge_workplaces, parcel_names   evidence -> found cues
  document_holder  greeting_names (a greeting's name + its surname on a document)  evidence -> found cues
  name_agreement  name_agreement (a name two images agree on; a certificate's, a name plate's)  evidence -> found cues
  name_gender  name_gender (the honorific or sex field a document prints with the claimed name)  found names -> found cues
  venues     sign_venues                                                 evidence -> found cues
  generic    every attribute no other aggregator owns                   cues -> hypotheses
  places     home / work location, trips                                 place observations -> hypotheses
  regional   regional_vocab (a home country from regional words, when no place says it)  cues -> home_location
  temporal   commute, routine, habits                                    cues + times -> facts
  work_place work city from a weekday commute inside the home city; a workplace's city (its card,
             else the work / home area); the work district from the workplace's printed address
                                                                         hypotheses -> work_location, workplace
  birth      birthday, birth year, age                                   posts + derived -> birth_date, age

REGISTRY lists them in registration order (the tie-break among aggregators whose inputs are ready).
"""
from __future__ import annotations

from core.engine.aggregators import (birth, document_holder, documents, generic, name_agreement, name_gender, places, regional,
                                    temporal, venues, work_place)
from core.engine.aggregators.base import RegistryError
from core.engine.aggregators.registry import Aggregator, Board, Registry, aggregator

REGISTRY = Registry([
    documents.CONTACTS, documents.RECEIPTS, documents.BADGES, documents.PARCEL_NAMES, document_holder.GREETING_NAMES,
    name_agreement.NAME_AGREEMENT, name_gender.NAME_GENDER,
    venues.SIGNS,
    generic.GENERIC,
    places.PLACES, regional.REGIONAL,
    temporal.COMMUTE, temporal.ROUTINE, temporal.HABITS, work_place.WORK_PLACE,
    birth.BIRTH,
])

__all__ = ["REGISTRY", "Aggregator", "Board", "Registry", "RegistryError", "aggregator"]
