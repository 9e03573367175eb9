"""Scaffolding shared by the games' rule packages, and nothing game-specific.

Mâamut's ``engine`` and Mammut's ``ostby_mammut`` each keep their own rules, rulings and
texts; what they share is the shape around them: named variants checked against their
allowed readings (:mod:`rulekit.variants`), errors that name the rule they apply
(:mod:`rulekit.errors`), a rulebook of paraphrases with their citations
(:mod:`rulekit.rulebook`) and a live table's followers (:mod:`rulekit.followers`). This package
imports nothing of ours.
"""
