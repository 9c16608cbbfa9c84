"""Forms of the organiser's and the day's pages. They only shape input: every rule is
checked by a service.

A form turns the fields into the keyword arguments of a service (``service_kwargs``);
the view calls the service and puts a ``TournamentError`` back on the form with
:func:`add_service_error`, on the field it names when there is one. One module per
family: ``championships`` (a championship, its rules and tie-breaks), ``teams`` (entries,
edits, substitutions), ``rounds`` (stages, tables, walkovers, referees of a round),
``league`` (a league's dates: a matchday's, a match's, a postponement), ``referees`` (the
championship's referees and their invitations), ``people`` (a person's details, the
people's search).
"""

from __future__ import annotations

from tournaments.web.organiser.forms.championships import (
    PRESET_CHOICES,
    TABLE_SIZES,
    ChampionshipCreateForm,
    ChampionshipDetailsForm,
    ChampionshipRulesForm,
    RulesMixin,
    TieBreakChainMixin,
    rule_choices,
)
from tournaments.web.organiser.forms.league import (
    MatchdayDateForm,
    MatchdayMatchesForm,
    MatchPostponeForm,
    MatchScheduleForm,
)
from tournaments.web.organiser.forms.people import PeopleSearchForm, PersonForm
from tournaments.web.organiser.forms.referees import (
    InvitationAcceptForm,
    RefereeAddForm,
    RefereeInviteForm,
)
from tournaments.web.organiser.forms.rounds import (
    MatchAssignForm,
    MatchAssignFormSet,
    RefereeChoiceField,
    RoundRefereeForm,
    StageForm,
    WalkoverForm,
)
from tournaments.web.organiser.forms.teams import (
    SubstitutionForm,
    TeamEditForm,
    TeamForm,
    TeamImportForm,
)
from tournaments.web.shared.forms import (
    add_service_error,
)

__all__ = [
    "PRESET_CHOICES",
    "TABLE_SIZES",
    "ChampionshipCreateForm",
    "ChampionshipDetailsForm",
    "ChampionshipRulesForm",
    "InvitationAcceptForm",
    "MatchAssignForm",
    "MatchAssignFormSet",
    "MatchPostponeForm",
    "MatchScheduleForm",
    "MatchdayDateForm",
    "MatchdayMatchesForm",
    "PeopleSearchForm",
    "PersonForm",
    "RefereeAddForm",
    "RefereeChoiceField",
    "RefereeInviteForm",
    "RoundRefereeForm",
    "RulesMixin",
    "StageForm",
    "SubstitutionForm",
    "TeamEditForm",
    "TeamForm",
    "TeamImportForm",
    "TieBreakChainMixin",
    "WalkoverForm",
    "add_service_error",
    "rule_choices",
]
