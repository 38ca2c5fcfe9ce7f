//! The class table: classes, fields and methods by typed id, and how they are added and read.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use elsa::FrozenVec;

use super::access;
use super::descriptor::{JType, MethodDesc};
use super::ids::{ClassId, FieldId, MethodId};
use super::jmod::JdkImage;
use super::lambda_site::LambdaSite;
use super::lines::SourceMap;

/// A constant from a `ConstantValue` attribute of a static field.
#[derive(Debug, Clone, PartialEq)]
pub enum ConstValue {
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    String(String),
}

/// One class or interface.
#[derive(Debug, Clone)]
pub struct Class {
    pub id: ClassId,
    /// Internal name (`samples/Container`).
    pub name: String,
    /// False for phantom classes: referenced, but not on the class path.
    pub loaded: bool,
    /// Loaded from the installed JDK (the class path lacks it: a superclass, a callee's or
    /// an object's class, a class a user named) or one of uberlazy's Java models of JDK
    /// methods, not from the class path: never listed, never an input object's class, a
    /// target only when a user names it.
    pub jdk: bool,
    /// A nested class's source-level access flags (its own `InnerClasses` entry): `private`
    /// and `protected` show only here.
    pub inner_access: Option<u16>,
    /// The generic signature (`Signature` attribute): type parameters and supertypes with
    /// their type arguments (`<E:...>L.../AbstractPatriciaTrie<Ljava/lang/String;TE;>;`).
    pub signature: Option<String>,
    /// Where the class file came from (`testdata/samples.jar!samples/Container.class`).
    pub origin: Option<String>,
    pub access: u16,
    pub super_class: Option<ClassId>,
    pub interfaces: Vec<ClassId>,
    /// Fields declared by this class (not inherited), in class-file order.
    pub fields: Vec<FieldId>,
    /// Methods declared by this class, in class-file order.
    pub methods: Vec<MethodId>,
    /// The class file bytes, kept for lowering method bodies on demand.
    pub bytes: Option<Rc<[u8]>>,
    /// For the synthetic class of a lambda or method-reference call site, what it captures
    /// and calls (its method's body is built from this, not lowered from bytes).
    pub lambda: Option<Rc<LambdaSite>>,
}

impl Class {
    /// The Java spelling of the name (`samples.Container`).
    pub fn java_name(&self) -> String {
        self.name.replace('/', ".")
    }
    /// Loaded from the class path (not a phantom, not read from the installed JDK, not the
    /// synthetic class of a lambda call site).
    pub fn on_class_path(&self) -> bool {
        self.loaded && !self.jdk && !self.is_lambda()
    }
    /// The synthetic class of a lambda call site (`Owner$$Lambda$K`, `classfile/lambda.rs`).
    pub fn is_lambda(&self) -> bool {
        self.lambda.is_some()
    }
    pub fn is_interface(&self) -> bool {
        self.access & access::INTERFACE != 0
    }
    pub fn is_abstract(&self) -> bool {
        self.access & access::ABSTRACT != 0
    }
    /// Declared `public`: a nested class by its own `InnerClasses` flags (a `protected` or
    /// `private` nested class is not, whatever its class file's flags say).
    pub fn is_public(&self) -> bool {
        self.inner_access.unwrap_or(self.access) & access::PUBLIC != 0
    }
}

/// One field.
#[derive(Debug, Clone)]
pub struct Field {
    pub id: FieldId,
    pub owner: ClassId,
    pub name: String,
    pub ty: JType,
    pub access: u16,
    pub constant: Option<ConstValue>,
}

impl Field {
    pub fn is_static(&self) -> bool {
        self.access & access::STATIC != 0
    }
}

/// One method.
#[derive(Debug, Clone)]
pub struct Method {
    pub id: MethodId,
    pub owner: ClassId,
    pub name: String,
    pub desc: MethodDesc,
    pub access: u16,
    /// Whether the class file has a `Code` attribute for this method.
    pub has_code: bool,
    /// Source lines and jump senses of the code (empty without code or line numbers).
    pub source: SourceMap,
    /// For a method a user targets through a subclass that inherits it (`Sub#m`), the
    /// superclass method whose code it runs; the receiver is then a `Sub`.
    pub inherited: Option<MethodId>,
}

impl Method {
    pub fn is_static(&self) -> bool {
        self.access & access::STATIC != 0
    }
    pub fn is_private(&self) -> bool {
        self.access & access::PRIVATE != 0
    }
    pub fn is_abstract(&self) -> bool {
        self.access & access::ABSTRACT != 0
    }
    /// `name(descriptor)`, the form used in error messages and method specs.
    pub fn signature(&self) -> String {
        format!("{}{}", self.name, self.desc)
    }
}

/// All classes, fields and methods, indexed by typed ids.
///
/// The table only grows, and it may grow through a shared reference while the machine reads
/// it: lowering a method on demand interns the classes its code names (phantoms when they are
/// not loaded) and makes the classes of its lambda call sites. Entries never move or change
/// once added, except through `&mut self` (loading, the drivers of `--inputs api`).
#[derive(Default)]
pub struct ClassTable {
    pub(super) classes: FrozenVec<Box<Class>>,
    fields: FrozenVec<Box<Field>>,
    methods: FrozenVec<Box<Method>>,
    by_name: RefCell<HashMap<String, ClassId>>,
    /// Abstract methods a phantom interface learned after it was made: the functional
    /// method of a lambda call site whose interface is not loaded.
    learned: RefCell<HashMap<ClassId, Vec<MethodId>>>,
    /// [`ClassTable::loaded_subclasses`] by class, computed once each.
    pub(super) subclasses: RefCell<HashMap<ClassId, Rc<[ClassId]>>>,
    /// The installed JDK, once the class path is loaded: a class name the table does not
    /// know is read from it when first interned, as a JVM loads a class when it is first
    /// resolved (superclass, callee, field's or object's class, a target).
    pub(super) jdk_image: RefCell<Option<JdkImage>>,
}

impl std::fmt::Debug for ClassTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ClassTable({} classes, {} methods)", self.classes.len(), self.methods.len())
    }
}

impl ClassTable {
    /// The Java model ([`crate::models::JAVA_MODELS`]) of the static method `name desc` of JDK
    /// class `owner`, if there is one.
    pub fn java_model(&self, owner: ClassId, name: &str, desc: &MethodDesc) -> Option<MethodId> {
        let jdk = &self.class(owner).name;
        let (_, model) = crate::models::JAVA_MODELS.iter().find(|(c, _)| c == jdk)?;
        let m = self.declared_method(self.lookup(model)?, name, desc)?;
        (self.method(m).is_static() && self.method(m).has_code).then_some(m)
    }

    /// The id for an internal class name: a class already known, else one read from the
    /// installed JDK (once the class path is loaded, unless the models describe it), else a
    /// new phantom entry.
    pub fn intern(&self, name: &str) -> ClassId {
        if let Some(id) = self.by_name.borrow().get(name) {
            return *id;
        }
        if let Some(id) = self.load_from_jdk(name) {
            return id;
        }
        let object = if name == "java/lang/Object" { None } else { Some(self.intern("java/lang/Object")) };
        let id = ClassId(self.classes.len() as u32);
        self.classes.push(Box::new(Class {
            id,
            name: name.to_string(),
            loaded: false,
            jdk: false,
            inner_access: None,
            signature: None,
            origin: None,
            access: access::PUBLIC,
            super_class: object,
            interfaces: Vec::new(),
            fields: Vec::new(),
            methods: Vec::new(),
            bytes: None,
            lambda: None,
        }));
        self.by_name.borrow_mut().insert(name.to_string(), id);
        id
    }

    /// Adds a class made whole elsewhere (a lambda call site's) under a name not yet taken;
    /// its id is the next one, which its fields and methods already name as their owner.
    pub(super) fn push_class(&self, class: Class) -> ClassId {
        let id = class.id;
        debug_assert_eq!(id.0 as usize, self.classes.len());
        self.by_name.borrow_mut().insert(class.name.clone(), id);
        self.classes.push(Box::new(class));
        id
    }

    /// The id the next class added will get.
    pub(super) fn next_class_id(&self) -> ClassId {
        ClassId(self.classes.len() as u32)
    }

    /// Adds a field or method of a class being made through a shared reference.
    pub(super) fn push_field(&self, field: impl FnOnce(FieldId) -> Field) -> FieldId {
        let id = FieldId(self.fields.len() as u32);
        self.fields.push(Box::new(field(id)));
        id
    }

    /// See [`ClassTable::push_field`].
    pub(super) fn push_method(&self, method: impl FnOnce(MethodId) -> Method) -> MethodId {
        let id = MethodId(self.methods.len() as u32);
        self.methods.push(Box::new(method(id)));
        id
    }

    /// Gives phantom class `c` an abstract method after it was made (see `learned`).
    pub(super) fn learn_method(&self, c: ClassId, m: MethodId) {
        self.learned.borrow_mut().entry(c).or_default().push(m);
    }

    /// The methods phantom class `c` learned after it was made.
    pub(super) fn learned_methods(&self, c: ClassId) -> Vec<MethodId> {
        self.learned.borrow().get(&c).cloned().unwrap_or_default()
    }

    /// Looks up an internal (`a/b/C`) or Java (`a.b.C`) class name.
    pub fn lookup(&self, name: &str) -> Option<ClassId> {
        let by_name = self.by_name.borrow();
        by_name.get(name).or_else(|| by_name.get(&name.replace('.', "/"))).copied()
    }

    pub fn class(&self, id: ClassId) -> &Class {
        &self.classes[id.0 as usize]
    }
    pub fn class_mut(&mut self, id: ClassId) -> &mut Class {
        self.subclasses.get_mut().clear();
        &mut self.classes.as_mut()[id.0 as usize]
    }
    pub fn field(&self, id: FieldId) -> &Field {
        &self.fields[id.0 as usize]
    }
    pub fn method(&self, id: MethodId) -> &Method {
        &self.methods[id.0 as usize]
    }
    pub fn method_mut(&mut self, id: MethodId) -> &mut Method {
        &mut self.methods.as_mut()[id.0 as usize]
    }

    /// All classes in id order (loaded and phantom).
    pub fn classes(&self) -> impl Iterator<Item = &Class> {
        self.classes.iter()
    }

    /// Loaded classes sorted by name: the order every report uses.
    pub fn loaded_classes(&self) -> Vec<&Class> {
        let mut v: Vec<&Class> = self.classes.iter().filter(|c| c.on_class_path()).collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    }

    /// Adds a field declared by `owner`.
    pub fn add_field(
        &mut self,
        owner: ClassId,
        name: String,
        ty: JType,
        access: u16,
        constant: Option<ConstValue>,
    ) -> FieldId {
        let id = self.push_field(|id| Field { id, owner, name, ty, access, constant });
        self.class_mut(owner).fields.push(id);
        id
    }

    /// Adds a method declared by `owner`.
    pub fn add_method(
        &mut self,
        owner: ClassId,
        name: String,
        desc: MethodDesc,
        access: u16,
        has_code: bool,
    ) -> MethodId {
        let id = self.push_method(|id| Method {
            id,
            owner,
            name,
            desc,
            access,
            has_code,
            source: Default::default(),
            inherited: None,
        });
        self.class_mut(owner).methods.push(id);
        id
    }

    /// `Class#name(desc)` in Java spelling, for messages.
    pub fn method_display(&self, id: MethodId) -> String {
        let m = self.method(id);
        format!("{}#{}", self.class(m.owner).java_name(), m.signature())
    }

    /// The class id of a reference type's class (`None` for arrays and primitives).
    pub fn class_of_type(&self, ty: &JType) -> Option<ClassId> {
        match ty {
            JType::Class(c) => Some(self.intern(c)),
            _ => None,
        }
    }
}
