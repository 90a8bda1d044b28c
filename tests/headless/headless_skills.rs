//! Skills (SEP-2640) as a user lists and loads them: the demo's skill in both eras, text and
//! JSON, every file verified; the hostile server's skills each refused with the reason, before
//! anything of them is shown, its escape sequences never reaching the terminal.

use crate::cli::run;
use serde_json::Value;

#[test]
fn the_demos_skill_is_listed_and_loaded_verified_in_both_eras() {
    for era in ["modern", "legacy"] {
        let r = run(&["skills", "--demo", "--protocol", era]);
        assert_eq!(r.code, 0, "{era}: {}", r.stderr);
        assert!(
            r.stdout.starts_with(
                "inspect-a-server  2 files, 622 bytes  skill://inspect-a-server/SKILL.md"
            ),
            "{era}: {}",
            r.stdout
        );
        let r = run(&[
            "skill",
            "inspect-a-server",
            "--all",
            "--demo",
            "--protocol",
            era,
        ]);
        assert_eq!(r.code, 0, "{era}: {}", r.stderr);
        assert!(
            r.stdout.contains("── SKILL.md (529 bytes, verified) ──"),
            "{}",
            r.stdout
        );
        assert!(
            r.stdout
                .contains("── references/KEYS.md (93 bytes, verified) ──"),
            "{}",
            r.stdout
        );
    }
    let r = run(&[
        "skill",
        "skill://inspect-a-server/SKILL.md",
        "--format",
        "json",
        "--demo",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let loaded: Value = serde_json::from_str(&r.stdout).expect("json");
    assert_eq!(
        loaded["files"].as_array().map(Vec::len),
        Some(1),
        "SKILL.md alone"
    );
    assert_eq!(loaded["files"][0]["verified"], true);
    assert_eq!(loaded["skill"]["frontmatter"]["metadata"]["version"], "1.0");
    // The demo declares no other skill: a name it does not list is said to be unknown.
    let r = run(&["skill", "nope", "--demo"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("no skill named `nope` is listed"),
        "{}",
        r.stderr
    );
}

#[test]
fn every_hostile_skill_is_refused_with_its_reason_and_nothing_of_it_shown() {
    let listed = run(&["skills", "--hostile=skills"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    crate::hostile::assert_terminal_safe("skills", &listed.stdout);
    crate::hostile::assert_terminal_safe("skills' warnings", &listed.stderr);
    for why in [
        "is not `scheme://<skill-path>/SKILL.md`",
        "etc/passwd is not inside the skill's directory",
        "1073741824 bytes, over the extension's 16 MiB",
    ] {
        assert!(listed.stderr.contains(why), "{why}: {}", listed.stderr);
    }
    let refused = [
        (
            vec!["tampered"],
            "SKILL.md has a SHA-256 other than its entry's",
        ),
        (
            vec!["longer"],
            "SKILL.md is 264 bytes where its entry says 222",
        ),
        (vec!["bomb"], "uses a YAML alias: not expanded"),
        (
            vec!["twofaced"],
            "`description` is \"Summarise a file\" where its entry says \"Something else entirely\"",
        ),
        (
            vec!["honest", "--file", "references/LIAR.md"],
            "LIAR.md is 94 bytes where its entry says 47",
        ),
        (vec!["honest", "--all"], "LIAR.md is 94 bytes"),
        (
            vec!["honest", "--file", "../../etc/passwd"],
            "is not listed in the skill's entry",
        ),
        (vec!["outside"], "is not inside the skill's directory"),
        (vec!["huge"], "over the extension's 16 MiB"),
    ];
    for (args, why) in refused {
        let mut words = vec!["skill"];
        words.extend(&args);
        words.push("--hostile=skills");
        let r = run(&words);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stdout);
        assert!(r.stderr.contains(why), "{args:?}: {}", r.stderr);
        assert_eq!(
            r.stdout, "",
            "{args:?}: nothing of a refused skill is shown"
        );
    }
    let honest = run(&[
        "skill",
        "honest",
        "--file",
        "references/EXTRA.md",
        "--hostile=skills",
    ]);
    assert_eq!(honest.code, 0, "{}", honest.stderr);
    assert!(
        honest.stdout.contains("An honest supporting file."),
        "{}",
        honest.stdout
    );
}
