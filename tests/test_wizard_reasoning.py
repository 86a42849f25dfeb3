"""The wizard's arithmetic, without Django: belief updates, information gain, when to stop."""

import math

from wizard.reasoning import (
    CONFIRMS,
    NEUTRAL,
    RULES_OUT,
    Hypothesis,
    Question,
    entropy,
    expected_gain,
    finished,
    posterior,
    ranked_questions,
    separates,
    update,
)

A1, A2, B1 = Hypothesis("a", "one"), Hypothesis("a", "two"), Hypothesis("b", "one")
PRIOR = {A1: 1 / 3, A2: 1 / 3, B1: 1 / 3}


def test_a_yes_multiplies_by_the_likelihood_and_renormalises():
    q = Question("q", {A1: CONFIRMS, A2: RULES_OUT})
    belief = update(PRIOR, q, "yes")
    assert math.isclose(sum(belief.values()), 1.0)
    assert math.isclose(belief[A1] / belief[B1], CONFIRMS / NEUTRAL)
    assert math.isclose(belief[A2] / belief[B1], RULES_OUT / NEUTRAL)


def test_not_sure_changes_nothing():
    q = Question("q", {A1: CONFIRMS})
    assert update(PRIOR, q, "unsure") == PRIOR
    assert posterior(PRIOR, {"q": q}, {"q": "unsure"}) == PRIOR


def test_unknown_answer_keys_are_ignored():
    assert posterior(PRIOR, {}, {"nonsense": "yes"}) == PRIOR


def test_a_question_that_splits_the_belief_gains_more_than_one_that_does_not():
    splitting = Question("split", {A1: 0.9, A2: 0.1, B1: 0.1})
    useless = Question("same", {A1: 0.5, A2: 0.5, B1: 0.5})
    assert expected_gain(PRIOR, splitting) > 0.3
    assert expected_gain(PRIOR, useless) == 0.0
    assert entropy(PRIOR) == math.log2(3)


def test_the_best_question_comes_first_and_answered_ones_are_never_asked():
    questions = {
        "weak": Question("weak", {A1: 0.8}),
        "strong": Question("strong", {A1: 0.9, A2: 0.1, B1: 0.1}),
        "useless": Question("useless", {}),
    }
    assert [key for _, key in ranked_questions(PRIOR, questions, {})] == ["strong", "weak"]
    assert [key for _, key in ranked_questions(PRIOR, questions, {"strong": "unsure"})] == ["weak"]


def test_it_stops_when_confident_or_when_nothing_would_change_the_outcome():
    strong = Question("strong", {A1: 0.99, A2: 0.01, B1: 0.01})
    questions = {"strong": strong}
    assert not finished(PRIOR, questions, {})
    belief = posterior(PRIOR, questions, {"strong": "yes"})
    assert belief[A1] > 0.9
    assert finished(belief, questions, {"strong": "yes"})
    assert finished(PRIOR, {"useless": Question("useless", {})}, {})


def test_separates_names_two_likely_hypotheses_on_opposite_sides():
    q = Question("q", {A1: 0.9, A2: 0.9, B1: 0.1})
    assert set(separates(PRIOR, q)) == {A1, B1}
    assert separates(PRIOR, Question("flat", {})) is None
