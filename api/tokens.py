"""``/tokens``: admins create, list and revoke bearer tokens (as ``matchlog tokens`` does);
any token reads its own record (``/tokens/me``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated
from uuid import UUID

from litestar import Controller, Response, delete, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal, requires
from api.openapi import documented
from api.schemas import TokenCreated, TokenIn, TokenOut, problem_responses
from domain.roles import Role
from service import tokens

TokenId = Annotated[UUID, Parameter(title="Token id", description="The token's UUID.")]


class TokenController(Controller):
    """Manage bearer tokens; every operation but ``/tokens/me`` needs an admin token."""

    path = "/tokens"
    tags = ("tokens",)
    opt = requires(Role.ADMIN)
    security = [{"bearer": []}]  # noqa: RUF012

    @get(
        operation_id="ListTokens",
        summary="List tokens, newest first (never their secrets)",
        responses=problem_responses(401, 403, 422),
    )
    async def list_tokens(
        self,
        pool: NamedDependency[AsyncConnectionPool],
        active: Annotated[
            bool,
            Parameter(description="Leave out revoked and expired tokens.", title="Active only"),
        ] = False,
    ) -> list[TokenOut]:
        """Return every token's record."""
        async with pool.connection() as conn:
            records = await tokens.list_tokens(conn, active=active)
        return [TokenOut.from_record(t) for t in records]

    @get(
        "/me",
        operation_id="GetOwnToken",
        summary="Read the calling token's own record: its role, name and competitions",
        opt=requires(Role.SCORER),
        responses=problem_responses(401),
    )
    async def get_own_token(
        self, pool: NamedDependency[AsyncConnectionPool], principal: NamedDependency[Principal]
    ) -> TokenOut:
        """Return the record of the token the request carries (any role may ask): what a
        page signed in with it may offer (an admin's forms, a scorer's competitions)."""
        async with pool.connection() as conn:
            return TokenOut.from_record(await tokens.get_token(conn, principal.token_id))

    @get(
        "/{token_id:uuid}",
        operation_id="GetToken",
        summary="Read one token's record",
        responses=problem_responses(401, 403, 404),
    )
    async def get_token(
        self, pool: NamedDependency[AsyncConnectionPool], token_id: TokenId
    ) -> TokenOut:
        """Return the token's record; 404 ``TOKEN_NOT_FOUND`` if there is none."""
        async with pool.connection() as conn:
            return TokenOut.from_record(await tokens.get_token(conn, token_id))

    @post(
        operation_id="CreateToken",
        operation_class=documented(
            example={
                "role": "scorer",
                "competitions": ["0d7e5f3a-2b1c-4d9e-8f7a-6b5c4d3e2f1a"],
                "name": "club tablet",
            }
        ),
        summary="Create a token; its secret is shown in this response only",
        responses=problem_responses(400, 401, 403, 404, 413, 422),
    )
    async def create_token(
        self, data: JSONBody[TokenIn], pool: NamedDependency[AsyncConnectionPool]
    ) -> Response[TokenCreated]:
        """Create a token (201); 404 ``COMPETITION_NOT_FOUND`` for an unknown competition."""
        async with pool.connection() as conn:
            token, secret = await tokens.create_token(
                conn,
                role=data.role,
                competitions=data.competitions,
                name=data.name,
                expires_in=None if data.expires_in is None else timedelta(seconds=data.expires_in),
            )
        body = TokenCreated(**TokenOut.from_record(token).model_dump(), token=secret)
        return Response(body, status_code=201, headers={"Location": f"/tokens/{token.id}"})

    @delete(
        "/{token_id:uuid}",
        operation_id="RevokeToken",
        summary="Revoke a token (it stops working at once)",
        status_code=200,
        responses=problem_responses(401, 403, 404),
    )
    async def revoke_token(
        self, pool: NamedDependency[AsyncConnectionPool], token_id: TokenId
    ) -> TokenOut:
        """Revoke the token and return its record; revoking twice keeps the first time."""
        async with pool.connection() as conn:
            return TokenOut.from_record(await tokens.revoke_token(conn, token_id))
