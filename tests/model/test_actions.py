"""Actions serialise exactly like smdebug-rulesconfig 1.0.1 and accept real addresses."""
import pytest
import smdebug_rulesconfig as upstream

from sm_debug_config import ConfigError, ConfigWarning, Rule, render, rule_configs
from sm_debug_config.model.actions import ActionList, Email, SMS, StopTraining, parse_action_json


def test_serialisation_matches_upstream():
    assert StopTraining("job-a").serialize() == upstream.StopTraining("job-a").serialize()
    assert Email("abc@abc.com").serialize() == upstream.Email("abc@abc.com").serialize()
    assert SMS("+1234567890").serialize() == upstream.SMS("+1234567890").serialize()
    ours = ActionList(StopTraining(), Email("abc@abc.com"), SMS("+1234567890"))
    theirs = upstream.ActionList(upstream.StopTraining(), upstream.Email("abc@abc.com"), upstream.SMS("+1234567890"))
    theirs.update_training_job_prefix_if_not_specified("job-1")
    assert ours.serialize("job-1") == theirs.serialize()
    assert ActionList().serialize() == upstream.ActionList().serialize() == "[]"


@pytest.mark.parametrize(
    "address",
    [
        "ml-team.alerts+debugger@mail.example.co.uk",
        "First.Last@Example.com",
        "a_b@my-company.io",
        "ops@abc.info",
        "x@sub.domain.example.museum",
    ],
)
def test_email_accepts_real_addresses_the_sdk_refuses(address):
    assert Email(address).action_parameters == {"endpoint": address, "name": "email"}


@pytest.mark.parametrize(
    "address",
    ["bad.email.com", "a@b", "a@@b.com", 'quote"d@x.com', "back\\slash@x.com", "sp ace@x.com", "a@-x.com", "", 5],
)
def test_email_rejects_non_addresses(address):
    """Not a string: refused. Not an address: a warning since issue 14 (SNS refuses it; the rule runs on)."""
    if not isinstance(address, str):
        with pytest.raises(ConfigError, match="Email.email_address"):
            Email(address)
        return
    with pytest.warns(ConfigWarning, match="Email.email_address.*SMD155"):
        Email(address)


@pytest.mark.parametrize(
    "number, ok",
    [
        ("+14155550100", True),
        ("+442071838750", True),
        ("+1234567890123456", False),
        ("14155550100", False),
        ("+1 415 555", False),
        ("+0123", False),
        (14155550100, False),
    ],
)
def test_sms_requires_e164(number, ok):
    if ok:
        SMS(number)
    elif not isinstance(number, str):
        with pytest.raises(ConfigError, match="E.164"):
            SMS(number)
    else:  # issue 14: the SDK's own integration test used "+01234567890"; SNS refuses it, the rule runs on
        with pytest.warns(ConfigWarning, match="E.164.*no SMS is sent"):
            SMS(number)


def test_stop_training_prefix_rules():
    with pytest.raises(ConfigError, match="training_job_prefix"):
        StopTraining("has_underscore")
    with pytest.raises(ConfigError, match="job_name"):
        StopTraining().serialize()
    assert '\\"training_job_prefix\\": \\"job-2\\"' in StopTraining().serialize("job-2")


def test_action_list_rejects_other_things():
    with pytest.raises(ConfigError, match=r"ActionList\[1\]"):
        ActionList(StopTraining(), "email")


def test_round_trip_through_action_json():
    actions = ActionList(StopTraining("j"), Email("ml-team.alerts+debugger@mail.example.co.uk"), SMS("+14155550100"))
    assert parse_action_json(actions.serialize()) == actions
    assert parse_action_json(Email("a@b.co").serialize()) == Email("a@b.co")
    with pytest.raises(ConfigError):
        parse_action_json("{not json")
    with pytest.raises(ConfigError):
        parse_action_json('[{\\"name\\": \\"page\\"}]')


def _render_actions(actions, job_name="job-1"):
    rule = Rule.sagemaker(rule_configs.overfit(), actions=actions)
    return render([rule], region="us-east-1", output_path="s3://bucket/out/", job_name=job_name)[
        "DebugRuleConfigurations"
    ][0]


def test_render_fills_stop_training_prefix_from_job_name_and_needs_one():
    params = _render_actions(StopTraining())["RuleParameters"]
    assert params["action_json"] == '{\\"name\\": \\"stoptraining\\", \\"training_job_prefix\\": \\"job-1\\"}'
    with pytest.raises(ConfigError, match="job_name"):
        _render_actions(StopTraining(), job_name=None)


def test_action_json_over_256_characters_is_refused():
    long = Email("a" * 60 + "@" + "b" * 60 + ".example.com")
    with pytest.raises(ConfigError, match="256"):
        _render_actions(ActionList(long, Email("c" * 60 + "@" + "d" * 60 + ".example.com")))


def test_render_does_not_change_the_action_objects():
    action = StopTraining()
    _render_actions(action)
    assert action.action_parameters == {"name": "stoptraining"}


def test_parsing_keeps_the_form_stop_training_was_written_in():
    defaulted, explicit = StopTraining(), StopTraining("job-1")
    text = ActionList(defaulted, explicit).serialize("job-1")
    parsed = parse_action_json(text)
    assert parsed.serialize() == text
    assert parsed.actions[0] != parsed.actions[1]  # same prefix, different serialised form


def test_render_leaves_every_object_it_is_given_as_it_was():
    import attrs

    from sm_debug_config import ProfilerRule

    rules = [
        Rule.sagemaker(rule_configs.overfit(), actions=ActionList(StopTraining(), Email("a@b.co"))),
        ProfilerRule.sagemaker(
            rule_configs.CPUBottleneck(threshold=70), instance_type="ml.m5.xlarge", volume_size_in_gb=10
        ),
    ]
    before = [attrs.evolve(rule) for rule in rules]
    render(rules, region="us-east-1", output_path="s3://bucket/out/", job_name="job-1")
    assert rules == before
    assert rules[0].actions.actions[0].action_parameters == {"name": "stoptraining"}
