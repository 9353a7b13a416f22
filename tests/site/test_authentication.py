"""API tokens: the account behind a valid token acts; bad, unknown and inactive ones get a JSON 401."""
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.conftest import token_client


def test_a_valid_token_acts_as_its_account(alice):
    client = token_client(alice)
    assert client.get("/api/v1/memories", {"user_id": "alice"}).status_code == 200
    assert client.get("/api/v1/memories", {"user_id": "bob"}).status_code == 403  # still only alice's grants


def test_unknown_malformed_and_inactive_tokens_are_refused_with_a_message(alice):
    key = Token.objects.create(user=alice).key
    for header, message in ((f"Token {key[:-1]}x", "Invalid token."),
                            ("Token", "Invalid token header. No credentials provided."),
                            (f"Token {key} extra", "Invalid token header. Token string should not contain spaces.")):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=header)
        response = client.get("/api/v1/memories", {"user_id": "alice"})
        assert (response.status_code, response.json()["message"]) == (401, message), header
    alice.is_active = False
    alice.save()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.get("/api/v1/memories", {"user_id": "alice"})
    assert (response.status_code, response.json()["message"]) == (401, "User inactive or deleted.")
