from __future__ import annotations

import uuid

import pytest

from api.auth import Principal, readable_private, require_role, require_scope
from domain.errors import ForbiddenError, UnauthenticatedError
from store.accounts import Role

CUP = uuid.uuid4()
OTHER = uuid.uuid4()

ADMIN = Principal(uuid.uuid4(), Role.ADMIN, None)
SCORER = Principal(uuid.uuid4(), Role.SCORER, None)
CUP_SCORER = Principal(uuid.uuid4(), Role.SCORER, frozenset({CUP}))


class TestRequireRole:
    def test_admin_has_every_role(self) -> None:
        assert ADMIN is require_role(ADMIN, Role.SCORER)

    def test_scorer_is_not_admin(self) -> None:
        with pytest.raises(ForbiddenError) as e:
            require_role(SCORER, Role.ADMIN)
        assert "FORBIDDEN" == e.value.code

    def test_anonymous_is_unauthenticated(self) -> None:
        with pytest.raises(UnauthenticatedError) as e:
            require_role(None, Role.SCORER)
        assert "UNAUTHENTICATED" == e.value.code


class TestRequireScope:
    @pytest.mark.parametrize("principal", [ADMIN, SCORER, CUP_SCORER])
    def test_may_act_on_allowed_competition(self, principal: Principal) -> None:
        require_scope(principal, CUP)

    @pytest.mark.parametrize("competition", [OTHER, None])
    def test_scoped_scorer_stays_in_its_competitions(self, competition: uuid.UUID | None) -> None:
        with pytest.raises(ForbiddenError) as e:
            require_scope(CUP_SCORER, competition)
        assert "FORBIDDEN" == e.value.code

    def test_unscoped_may_act_outside_competitions(self) -> None:
        require_scope(SCORER, None)


class TestReadablePrivate:
    def test_anonymous_reads_public_only(self) -> None:
        assert frozenset() == readable_private(None)

    def test_scoped_scorer_reads_its_competitions(self) -> None:
        assert frozenset({CUP}) == readable_private(CUP_SCORER)

    def test_admin_reads_everything(self) -> None:
        assert readable_private(ADMIN) is None
