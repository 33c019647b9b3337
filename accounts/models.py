from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player or operator. Custom from the first migration so fields can be added later."""

    nickname = models.CharField("昵称", max_length=32, blank=True)

    def __str__(self) -> str:
        return self.nickname or self.username
