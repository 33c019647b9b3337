import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_home_page_renders_the_site_name(client):
    response = client.get(reverse("home"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "火拼双扣" in html
    assert '<html lang="zh-Hans">' in html


@pytest.mark.django_db
def test_api_schema_is_an_openapi_document(client):
    response = client.get("/api/schema/", {"format": "json"})

    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "火拼双扣 API"


@pytest.mark.django_db
def test_api_docs_page_points_at_the_schema(client):
    response = client.get("/api/docs/")

    assert response.status_code == 200
    assert "/api/schema/" in response.content.decode()
