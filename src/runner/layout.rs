//! `gen --layout`: where the test sources go below `--out` (`flat`: the directory itself;
//! `maven`: `src/test/java`) and the build-file lines a Maven or Gradle project needs.

use std::path::{Path, PathBuf};

/// The JUnit 5 version the build lines name (the API the emitted tests compile against).
pub const JUNIT5_VERSION: &str = "5.10.2";
/// The JUnit 4 version the build lines name.
pub const JUNIT4_VERSION: &str = "4.13.2";
/// Where a Maven or Gradle project keeps its test sources.
pub const MAVEN_TEST_SOURCES: &str = "src/test/java";

/// The directory layout of `gen --out`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// Test sources directly under `--out`.
    #[default]
    Flat,
    /// Test sources under `--out/src/test/java`, the runtime helper and JVM option files too.
    Maven,
}

impl Layout {
    /// Parses `flat` or `maven` (the error says what is wrong, for clap to print).
    pub fn parse(s: &str) -> Result<Layout, String> {
        match s {
            "flat" => Ok(Layout::Flat),
            "maven" => Ok(Layout::Maven),
            _ => Err(format!("`{s}` is not a layout: flat or maven")),
        }
    }

    /// The flag's value.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Flat => "flat",
            Layout::Maven => "maven",
        }
    }

    /// The directory the test sources (and `uberlazy/runtime/`) go to, for `--out out`.
    pub fn sources(self, out: &Path) -> PathBuf {
        match self {
            Layout::Flat => out.to_path_buf(),
            Layout::Maven => out.join(MAVEN_TEST_SOURCES),
        }
    }

    /// The lines a `pom.xml` or `build.gradle` needs to compile and run the tests: the test
    /// dependencies and, when `opens` (JDK packages such as `java.base/java.util`) is not
    /// empty, the `--add-opens` options of the JVM that runs them. None for `flat`.
    pub fn build_lines(self, junit4: bool, opens: &[String]) -> Vec<String> {
        if self == Layout::Flat {
            return Vec::new();
        }
        let mut v = if junit4 {
            vec![
                format!("test dependencies (pom.xml, scope test): junit:junit:{JUNIT4_VERSION}"),
                format!("  build.gradle: testImplementation 'junit:junit:{JUNIT4_VERSION}'"),
            ]
        } else {
            vec![
                format!(
                    "test dependencies (pom.xml, scope test): org.junit.jupiter:junit-jupiter-api:{JUNIT5_VERSION} \
                     and org.junit.jupiter:junit-jupiter-engine:{JUNIT5_VERSION} (maven-surefire-plugin 3.x runs them)"
                ),
                format!(
                    "  build.gradle: testImplementation 'org.junit.jupiter:junit-jupiter:{JUNIT5_VERSION}' \
                     and test {{ useJUnitPlatform() }}"
                ),
            ]
        };
        if !opens.is_empty() {
            let flags: Vec<String> = opens.iter().map(|p| format!("--add-opens {p}=ALL-UNNAMED")).collect();
            v.push(format!("surefire argLine: <argLine>{}</argLine>", flags.join(" ")));
            let quoted: Vec<String> = opens.iter().map(|p| format!("'--add-opens', '{p}=ALL-UNNAMED'")).collect();
            v.push(format!("  build.gradle: test {{ jvmArgs {} }}", quoted.join(", ")));
        }
        v
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn maven_puts_sources_under_src_test_java() {
        assert_eq!(Layout::parse("maven").unwrap().sources(Path::new("o")), Path::new("o/src/test/java"));
        assert_eq!(Layout::parse("flat").unwrap().sources(Path::new("o")), Path::new("o"));
        assert!(Layout::parse("gradle").is_err());
    }

    #[test]
    fn build_lines_name_the_dependencies_and_the_opens() {
        assert!(Layout::Flat.build_lines(false, &[]).is_empty());
        let l = Layout::Maven.build_lines(false, &["java.base/java.util".into()]);
        assert!(l[0].contains("org.junit.jupiter:junit-jupiter-api:5.10.2"));
        assert!(l[2].contains("<argLine>--add-opens java.base/java.util=ALL-UNNAMED</argLine>"));
        assert_eq!(Layout::Maven.build_lines(true, &[]).len(), 2);
    }
}
