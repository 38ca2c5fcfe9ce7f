//! Filling the class table: the class path, the Java models of JDK methods, and the
//! installed JDK's classes, read when a name is first interned.

use super::classpath::{self, ClassPath};
use super::descriptor::MethodDesc;
use super::ids::{ClassId, MethodId};
use super::table::ClassTable;
use super::{jdk, jmod, parse};

impl ClassTable {
    /// Loads every class of the class path. The first definition of a name wins, as in the JVM.
    /// Then the Java models of JDK methods ([`crate::models::JAVA_MODELS`]), which are not
    /// on the class path (never listed, never a target).
    pub fn load(cp: &ClassPath) -> crate::Result<Self> {
        ClassTable::load_within(cp, None)
    }

    /// [`ClassTable::load`], ending with [`crate::Error::Halted`] as soon as `budget` is spent.
    pub fn load_within(cp: &ClassPath, budget: Option<&crate::budget::Budget>) -> crate::Result<Self> {
        let mut t = ClassTable::new();
        let mut pacer = budget.map(crate::budget::Pacer::new);
        for src in cp.sources() {
            classpath::halt_check(&mut pacer)?;
            parse::add_class(&mut t, src)?;
        }
        let mut models = ClassPath::default();
        models.add_jar_bytes("uberlazy-models.jar", crate::models::JAVA_MODELS_JAR)?;
        for src in models.sources() {
            parse::add_class(&mut t, src)?;
        }
        for c in t.classes.as_mut().iter_mut() {
            if c.origin.as_deref().is_some_and(|o| o.starts_with("uberlazy-models.jar!")) {
                c.jdk = true;
            }
        }
        Ok(t)
    }

    /// As [`ClassTable::load`], then reads from the JDK at `jdk_home` (its
    /// `jmods/java.base.jmod`, opened only when needed) every superclass and interface of a
    /// loaded class that the class path lacks and the models do not describe, transitively:
    /// a library class then inherits its JDK superclass's fields and methods.
    pub fn load_with_jdk(cp: &ClassPath, jdk_home: Option<&std::path::Path>) -> crate::Result<Self> {
        ClassTable::load_with_jdk_within(cp, jdk_home, None)
    }

    /// [`ClassTable::load_with_jdk`], ending with [`crate::Error::Halted`] as soon as `budget`
    /// is spent.
    pub fn load_with_jdk_within(
        cp: &ClassPath,
        jdk_home: Option<&std::path::Path>,
        budget: Option<&crate::budget::Budget>,
    ) -> crate::Result<Self> {
        let mut t = ClassTable::load_within(cp, budget)?;
        if let Some(home) = jdk_home {
            t.load_jdk_supers(home, budget)?;
        }
        Ok(t)
    }

    /// Fills the phantoms the class path's classes made of their JDK superclasses and
    /// interfaces (transitively), then keeps the JDK to read any class named later.
    fn load_jdk_supers(&mut self, home: &std::path::Path, budget: Option<&crate::budget::Budget>) -> crate::Result<()> {
        let mut image: Option<jmod::JdkImage> = None;
        let mut pacer = budget.map(crate::budget::Pacer::new);
        let mut work: Vec<ClassId> = self.classes.iter().filter(|c| c.loaded).map(|c| c.id).collect();
        while let Some(c) = work.pop() {
            classpath::halt_check(&mut pacer)?;
            let cls = self.class(c);
            let ups: Vec<ClassId> = cls.super_class.into_iter().chain(cls.interfaces.iter().copied()).collect();
            for u in ups {
                let up = self.class(u);
                if up.loaded || jdk::modelled(&up.name) {
                    continue;
                }
                let name = up.name.clone();
                let img = match &mut image {
                    Some(img) => img,
                    None => image.insert(jmod::JdkImage::open(home)?),
                };
                if let Some(src) = img.class(&name)? {
                    parse::add_class(self, &src)?;
                    self.class_mut(u).jdk = true;
                    work.push(u);
                }
            }
        }
        let image = match image {
            Some(img) => img,
            None => jmod::JdkImage::open(home)?,
        };
        *self.jdk_image.get_mut() = Some(image);
        Ok(())
    }

    /// Reads class `name` (internal) from the installed JDK, when the table has a JDK and the
    /// models do not describe the class. A JDK class file that does not parse stays a phantom.
    pub(super) fn load_from_jdk(&self, name: &str) -> Option<ClassId> {
        if jdk::modelled(name) {
            return None;
        }
        let src = {
            let mut image = self.jdk_image.borrow_mut();
            image.as_mut()?.class(name).ok()??
        };
        parse::add_jdk_class(self, &src, None).ok()
    }

    /// The JDK's code of static method `name desc` of `owner`, a class the models describe
    /// (a phantom) when no model covers that method (`Objects.checkIndex`, `Long.bitCount`): the
    /// JDK's class file, read once into a class of its own (`uberlazy/jdk/...`) so that the
    /// phantom keeps the models' fields; its calls to the class's other static methods come
    /// back through the phantom.
    pub fn jdk_static_code(&self, owner: ClassId, name: &str, desc: &MethodDesc) -> Option<MethodId> {
        let class = self.class(owner);
        if class.loaded || !jdk::modelled(&class.name) {
            return None;
        }
        let shadow = format!("uberlazy/jdk/{}", class.name);
        let id = match self.lookup(&shadow) {
            Some(id) => id,
            None => {
                let src = {
                    let mut image = self.jdk_image.borrow_mut();
                    image.as_mut()?.class(&class.name).ok()??
                };
                parse::add_jdk_class(self, &src, Some(&shadow)).ok()?
            }
        };
        let m = self.declared_method(id, name, desc)?;
        (self.method(m).is_static() && self.method(m).has_code).then_some(m)
    }

    /// The class named `name` (internal `a/b/C` or Java `a.b.C`), read from the installed
    /// JDK if the table does not know it yet.
    pub fn lookup_or_load(&self, name: &str) -> Option<ClassId> {
        self.lookup(name).or_else(|| self.load_from_jdk(&name.replace('.', "/")))
    }
}
