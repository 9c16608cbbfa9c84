"""The demo's made-up names: Spanish and Catalan first names and surnames, drawn by a
seeded generator so that every load names the same players."""

from __future__ import annotations

import random
from collections.abc import Sequence

SPANISH_FIRST = [
    "María",
    "José",
    "Ramón",
    "Begoña",
    "Lucía",
    "Javier",
    "Pilar",
    "Andrés",
    "Rocío",
    "Ignacio",
    "Mercedes",
    "Tomás",
    "Inés",
    "Rubén",
    "Nuria",
    "Gonzalo",
    "Amparo",
    "Julián",
    "Soledad",
    "Matías",
    "Graciela",
    "Facundo",
    "Agustina",
    "Néstor",
    "Mónica",
    "Sebastián",
    "Lorena",
    "Héctor",
    "Valeria",
    "Óscar",
    "Celia",
    "Ezequiel",
]
SPANISH_LAST = [
    "García",
    "Fernández",
    "López",
    "Martínez",
    "Núñez",
    "Peña",
    "Ibáñez",
    "Muñoz",
    "Castaño",
    "Gutiérrez",
    "Sánchez",
    "Rodríguez",
    "Pérez",
    "Gómez",
    "Díaz",
    "Álvarez",
    "Romero",
    "Suárez",
    "Domínguez",
    "Cabañas",
    "Aguirre",
    "Benítez",
]
CATALAN_FIRST = [
    "Jordi",
    "Montserrat",
    "Pere",
    "Núria",
    "Joan",
    "Mercè",
    "Xavier",
    "Roser",
    "Oriol",
    "Laia",
    "Arnau",
    "Queralt",
    "Pau",
    "Marta",
    "Biel",
    "Anna",
    "Enric",
    "Sílvia",
    "Martí",
    "Gemma",
    "Ferran",
    "Aina",
    "Jaume",
    "Carme",
]
CATALAN_LAST = [
    "Puig",
    "Vila",
    "Soler",
    "Ferrer",
    "Riera",
    "Casals",
    "Pujol",
    "Serra",
    "Bosch",
    "Camps",
    "Font",
    "Sala",
    "Roig",
    "Prat",
    "Torrent",
    "Vidal",
    "Mas",
    "Costa",
    "Planas",
    "Solà",
]


def draw_names(rng: random.Random, first: Sequence[str], last: Sequence[str], count: int) -> list:
    chosen: list[str] = []
    while len(chosen) < count:
        name = f"{rng.choice(first)} {rng.choice(last)}"
        if name not in chosen:
            chosen.append(name)
    return chosen
