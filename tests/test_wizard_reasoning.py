"""The wizard's arithmetic, without Django: belief updates, information gain, when to stop."""

import math

from wizard.reasoning import (
    CONFIRMS,
    NEUTRAL,
    RULES_OUT,
    Hypothesis,
    Question,
    chosen_entry,
    entropy,
    expected_gain,
    finished,
    outcome_belief,
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


def test_the_gain_is_the_entropy_an_answer_is_expected_to_remove_to_the_last_bit():
    # Equal gains break ties by key, so the gain must be the same float as this reading of
    # its definition, not merely close to it.
    a3 = Hypothesis("a", "three")
    belief = {A1: 0.37, A2: 0.21, a3: 0.02, B1: 0.4}
    outcomes = {A1: ("a", "fix"), A2: ("a", "fix"), a3: ("a", "other")}
    q = Question("q", {A1: 0.9, A2: 0.1, B1: 0.5, a3: 0.1})
    p_yes = sum(p * q.likelihood(h, "yes") for h, p in belief.items())
    expected = entropy(outcome_belief(belief, outcomes))
    for answer, p_answer in (("yes", p_yes), ("no", 1 - p_yes)):
        expected -= p_answer * entropy(outcome_belief(update(belief, q, answer), outcomes))
    assert expected_gain(belief, q, outcomes) == expected


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


def test_the_entry_with_the_most_belief_is_chosen():
    assert chosen_entry({A1: 0.3, A2: 0.3, B1: 0.4}, start="b") == "a"


def test_a_tie_goes_to_the_single_most_likely_cause_then_to_the_start():
    a3 = Hypothesis("a", "three")
    # Three denied causes of a add up to one confirmed cause of b (0.43 each way).
    assert chosen_entry({A1: 0.1436, A2: 0.1436, a3: 0.1436, B1: 0.4308}, start="a") == "b"
    # 3 × 1/6 against 4 × 1/8 with the same factor: equal but for the last bit.
    b2, b3, b4 = Hypothesis("b", "two"), Hypothesis("b", "three"), Hypothesis("b", "four")
    belief = {A1: 0.9 / 6, A2: 0.9 / 6, a3: 0.9 / 6, B1: 0.9 / 8, b2: 0.9 / 8, b3: 0.9 / 8}
    belief[b4] = 0.9 / 8
    assert chosen_entry(belief, start="a") == "a"
    assert chosen_entry({A1: 0.25, A2: 0.25, B1: 0.25, Hypothesis("b", "two"): 0.25}, "b") == "b"
