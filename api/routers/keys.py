"""/v1/admin/keys: scoped API keys, issued and revoked with the administrator key (api/gate.py)."""
from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, status

from api.deps import ServicesDep
from api.schemas.keys import IssuedKeyOut, KeyCreate, KeyListOut, KeyOut

router = APIRouter(prefix="/v1/admin/keys", tags=["admin"])


@router.post("", status_code=status.HTTP_201_CREATED, response_model=IssuedKeyOut,
             summary="Issue a key for some agents with a role; its secret is in this answer only")
async def issue_key(body: KeyCreate, services: ServicesDep) -> IssuedKeyOut:
    key = await services.keys.issue(body.to_domain())
    assert key.secret is not None
    return IssuedKeyOut(**KeyOut.of(key).model_dump(), key=key.secret)


@router.get("", response_model=KeyListOut, summary="Every issued key, revoked ones included (never secrets)")
async def list_keys(services: ServicesDep) -> KeyListOut:
    keys = await services.keys.list()
    return KeyListOut(count=len(keys), keys=[KeyOut.of(k) for k in keys])


@router.get("/{key_id}", response_model=KeyOut)
async def get_key(key_id: UUID, services: ServicesDep) -> KeyOut:
    return KeyOut.of(await services.keys.get(str(key_id)))


@router.delete("/{key_id}", response_model=KeyOut,
               summary="Revoke a key: refused from the next request on (kept, with its revocation time)")
async def revoke_key(key_id: UUID, services: ServicesDep) -> KeyOut:
    return KeyOut.of(await services.keys.revoke(str(key_id)))
