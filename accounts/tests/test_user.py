import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import User


def test_the_user_model_is_accounts_user_with_a_nickname():
    assert get_user_model() is User
    nickname = User._meta.get_field("nickname")
    assert nickname.blank is True


@pytest.mark.django_db
def test_a_user_is_shown_by_nickname_when_set():
    user = User.objects.create_user(username="zhang", password="pw", nickname="老张")

    assert str(User.objects.get(pk=user.pk)) == "老张"
    assert str(User(username="li")) == "li"


@pytest.mark.django_db
def test_admin_user_page_offers_the_nickname(admin_client, django_user_model):
    player = django_user_model.objects.create_user(username="wang", password="pw")

    response = admin_client.get(reverse("admin:accounts_user_change", args=[player.pk]))

    assert response.status_code == 200
    assert 'name="nickname"' in response.content.decode()


@pytest.mark.django_db
def test_a_player_logs_in_on_the_login_page(client):
    User.objects.create_user(username="demo", password="demo")

    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "demo", "password": "demo"})

    assert response.status_code == 302
    assert response.url == reverse("home")
    assert "demo" in client.get(reverse("home")).content.decode()
