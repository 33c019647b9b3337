from django.core.management.base import BaseCommand, CommandError

from ledger.audit import ledger_violations


class Command(BaseCommand):
    help = ("Prove the ledger whole: balances equal their legs, every transaction balances, "
            "each currency sums to zero, no hold resolved twice. Exits non-zero on a violation.")

    def handle(self, *args, **options) -> None:
        violations = ledger_violations()
        for violation in violations:
            self.stderr.write(f"VIOLATION: {violation}")
        if violations:
            raise CommandError(f"ledger audit failed: {len(violations)} violation(s)")
        self.stdout.write("ledger audit clean")
