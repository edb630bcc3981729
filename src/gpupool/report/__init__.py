"""Reporters: findings (and command results) -> text for people, JSON/SARIF/JUnit for machines.

Reporters never decide anything; engines never print.
"""
