"""``manage.py vapid_keys``: a new VAPID key pair for Web Push, as the lines to set."""

from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy

from tournaments.management.commands._common import TanteoCommand
from tournaments.notices.push import vapid_keys_new


class Command(TanteoCommand):
    help = gettext_lazy(
        "Print a new VAPID key pair for the players' phone notifications (Web Push), as "
        "the environment lines to set. Keep the private key secret; a new pair makes every "
        "phone turn its notifications on again."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = vapid_keys_new()
        # Who the push services may contact about the site's pushes (a mailto: or https:
        # address): the one set, else the sender of the site's mails.
        subject = settings.VAPID_SUBJECT
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"VAPID_SUBJECT={subject}")
