//! What a call-sequence driver passes for an argument of a declared type: the parameter
//! itself, a boxed int, or an object built by calls, one of a few recipes (a JDK collection
//! with up to two elements, an object of the class path made by its simplest public
//! constructor or static factory), as a user writing the test by hand would build it.

use std::collections::HashMap;

use super::build::Builder;
use super::driver::{Arg, How, Recipe, Site};
use crate::classfile::{ClassId, ClassTable, JType, MethodDesc, MethodId, access};
use crate::ir::{BlockId, Call, Const, Expr, Handler, InvokeKind, LocalId, MethodRef, Operand, Stmt, Terminator};

/// Elements a collection or map argument gets at most.
const MAX_ELEMENTS: usize = 2;

/// Classes of the class path whose objects may stand for an interface- or abstract-typed
/// argument.
const MAX_CLASSES: usize = 2;

/// The JDK class that stands for each declared collection or map type, and the method that
/// adds an element to it.
const COLLECTIONS: &[(&[&str], &str, &str)] = &[
    (
        &[
            "java/lang/Iterable",
            "java/util/Collection",
            "java/util/List",
            "java/util/AbstractCollection",
            "java/util/AbstractList",
            "java/util/ArrayList",
        ],
        "java/util/ArrayList",
        "add",
    ),
    (&["java/util/Set", "java/util/AbstractSet", "java/util/HashSet"], "java/util/HashSet", "add"),
    (&["java/util/SortedSet", "java/util/NavigableSet", "java/util/TreeSet"], "java/util/TreeSet", "add"),
    (&["java/util/Queue", "java/util/Deque", "java/util/ArrayDeque"], "java/util/ArrayDeque", "add"),
    (&["java/util/LinkedList"], "java/util/LinkedList", "add"),
    (&["java/util/Map", "java/util/AbstractMap", "java/util/HashMap"], "java/util/HashMap", "put"),
    (&["java/util/SortedMap", "java/util/NavigableMap", "java/util/TreeMap"], "java/util/TreeMap", "put"),
];

/// Element types a driver passes as `Integer.valueOf(int)` (or as a `String` where the
/// class keys by strings).
const ELEMENTS: &[&str] =
    &["java/lang/Object", "java/lang/Integer", "java/lang/Comparable", "java/lang/Number", "java/io/Serializable"];

/// The calls of a recipe before it gets parameters: the making call first.
type Template = (ClassId, Vec<MethodId>);

/// Makes the driver's parameters and the arguments they hold; remembers the recipes of each
/// declared type it has looked at.
pub(super) struct Params {
    /// The driver's parameters, named, in order.
    pub names: Vec<(String, JType)>,
    /// Element arguments are strings.
    strings: bool,
    /// The package of the class under test (its own implementations come first).
    home: String,
    recipes: HashMap<JType, Option<Vec<Template>>>,
}

impl Params {
    pub fn new(table: &ClassTable, class: ClassId, strings: bool) -> Params {
        let name = &table.class(class).name;
        let home = name.rsplit_once('/').map(|(p, _)| p.to_string()).unwrap_or_default();
        Params { names: Vec::new(), strings, home, recipes: HashMap::new() }
    }

    pub fn add(&mut self, name: String, ty: JType) -> usize {
        self.names.push((name, ty));
        self.names.len() - 1
    }

    /// Parameters for the arguments of `m` (`prefix` names them), or `None` when one of its
    /// argument types cannot be built. Object arguments of the sites of a recipe are never
    /// built by recipes themselves (`nested`).
    pub fn site(&mut self, table: &ClassTable, m: MethodId, prefix: &str) -> Option<Site> {
        self.site_at(table, m, prefix, false)
    }

    fn site_at(&mut self, table: &ClassTable, m: MethodId, prefix: &str, nested: bool) -> Option<Site> {
        let desc = table.method(m).desc.clone();
        if !desc.params.iter().all(|p| self.buildable(table, p, nested)) {
            return None;
        }
        let mut args = Vec::new();
        for (j, ty) in desc.params.iter().enumerate() {
            args.push(self.arg(table, ty, &format!("{prefix}_{j}"), nested)?);
        }
        Some(Site { method: m, args })
    }

    /// Whether a driver can pass an argument of type `ty`.
    pub fn buildable(&mut self, table: &ClassTable, ty: &JType, nested: bool) -> bool {
        match ty {
            JType::Boolean | JType::Byte | JType::Char | JType::Short | JType::Int | JType::Long => true,
            JType::Class(c) if c == "java/lang/String" || ELEMENTS.contains(&c.as_str()) => true,
            JType::Class(_) if !nested => self.templates(table, ty).is_some(),
            _ => false,
        }
    }

    /// The parameter (and for a built argument, the parameters of its recipes) of one
    /// argument of type `ty`.
    fn arg(&mut self, table: &ClassTable, ty: &JType, name: &str, nested: bool) -> Option<Arg> {
        let element = |c: &str| ELEMENTS.contains(&c);
        let keyed_by_strings =
            |c: &str| matches!(c, "java/lang/Object" | "java/lang/Comparable" | "java/io/Serializable");
        let (pty, how) = match ty {
            JType::Class(c) if c == "java/lang/String" => (ty.clone(), How::Param),
            JType::Class(c) if self.strings && keyed_by_strings(c) => {
                (JType::Class("java/lang/String".into()), How::Param)
            }
            JType::Class(c) if element(c) => (JType::Int, How::Boxed),
            JType::Class(_) if !nested => {
                let templates = self.templates(table, ty)?;
                let param = self.add(name.to_string(), JType::Int);
                let recipes = self.recipes(table, &templates, name)?;
                return Some(Arg { param, ty: ty.clone(), how: How::Built(recipes) });
            }
            JType::Class(_) => return None,
            _ => (ty.clone(), How::Param),
        };
        let param = self.add(name.to_string(), pty);
        Some(Arg { param, ty: ty.clone(), how })
    }

    /// The argument of `equals(Object)` of `class`: null, an object of the class made by its
    /// simplest maker (equal to a receiver no call changed), or a boxed int (of another class).
    pub fn other(&mut self, table: &ClassTable, class: ClassId, name: &str) -> Option<Arg> {
        let own = JType::Class(table.class(class).name.clone());
        let maker = simplest_maker(table, class, &own)?;
        let integer = table.intern("java/lang/Integer");
        let valueof = MethodDesc { params: vec![JType::Int], ret: Some(JType::Class("java/lang/Integer".into())) };
        let mut templates: Vec<Template> = vec![(class, vec![maker])];
        templates.extend(table.resolve_method(integer, "valueOf", &valueof).map(|m| (integer, vec![m])));
        let param = self.add(name.to_string(), JType::Int);
        let recipes = self.recipes(table, &templates, name)?;
        Some(Arg { param, ty: JType::object(), how: How::Built(recipes) })
    }

    /// The recipes of `templates`, their calls' value arguments made parameters named after
    /// `name`; `None` when a call has an argument a test cannot build.
    fn recipes(&mut self, table: &ClassTable, templates: &[Template], name: &str) -> Option<Vec<Recipe>> {
        let mut recipes = Vec::new();
        for (k, (class, calls)) in templates.iter().enumerate() {
            let sites = calls
                .iter()
                .enumerate()
                .map(|(i, m)| self.site_at(table, *m, &format!("{name}_{k}_{i}"), true))
                .collect::<Option<Vec<Site>>>()?;
            recipes.push(Recipe { class: *class, calls: sites });
        }
        Some(recipes)
    }

    /// The recipes of declared type `ty` (see the module comment), or `None` when it has none.
    fn templates(&mut self, table: &ClassTable, ty: &JType) -> Option<Vec<Template>> {
        if let Some(known) = self.recipes.get(ty) {
            return known.clone();
        }
        let found = match ty {
            JType::Class(c) => collection(table, c).or_else(|| class_path_objects(table, c, &self.home)),
            _ => None,
        };
        self.recipes.insert(ty.clone(), found.clone());
        found
    }
}

/// The recipes of a collection or map type: the JDK class standing for it with 0, 1, ...,
/// [`MAX_ELEMENTS`] elements.
fn collection(table: &ClassTable, declared: &str) -> Option<Vec<Template>> {
    let (_, class, adder) = COLLECTIONS.iter().find(|(types, _, _)| types.contains(&declared))?;
    let k = table.intern(class);
    let object = JType::object();
    let ctor = table.declared_method(k, "<init>", &MethodDesc { params: Vec::new(), ret: None })?;
    let desc = if *adder == "put" {
        MethodDesc { params: vec![object.clone(), object.clone()], ret: Some(object) }
    } else {
        MethodDesc { params: vec![object], ret: Some(JType::Boolean) }
    };
    let add = table.resolve_method(k, adder, &desc)?;
    Some((0..=MAX_ELEMENTS).map(|n| (k, std::iter::once(ctor).chain(std::iter::repeat_n(add, n)).collect())).collect())
}

/// The recipes of a type of the class path: up to [`MAX_CLASSES`] public concrete classes of
/// the type (itself first, then those of the class under test's package), each made by its
/// simplest public constructor or static factory whose arguments are values.
fn class_path_objects(table: &ClassTable, declared: &str, home: &str) -> Option<Vec<Template>> {
    let c = table.lookup(declared)?;
    let mut classes: Vec<ClassId> = table
        .loaded_subclasses(c)
        .into_iter()
        .filter(|k| {
            let class = table.class(*k);
            class.on_class_path() && public_class(table, *k) && !class.is_interface() && !class.is_abstract()
        })
        .collect();
    let package = |k: &ClassId| table.class(*k).name.rsplit_once('/').map(|(p, _)| p == home).unwrap_or(false);
    classes.sort_by_key(|k| (*k != c, !package(k), table.class(*k).name.clone()));
    let out: Vec<Template> = classes
        .into_iter()
        .filter_map(|k| {
            simplest_maker(table, k, &JType::Class(declared.to_string())).map(|m| (made(table, k, m), vec![m]))
        })
        .take(MAX_CLASSES)
        .collect();
    (!out.is_empty()).then_some(out)
}

/// The class a test declares the object `maker` makes of: `k` for a constructor, the declared
/// result of a static factory (`CloneTransformer.cloneTransformer()` returns a `Transformer`).
fn made(table: &ClassTable, k: ClassId, maker: MethodId) -> ClassId {
    let md = table.method(maker);
    match &md.desc.ret {
        Some(JType::Class(name)) if md.is_static() => table.lookup(name).unwrap_or(k),
        _ => k,
    }
}

/// The simplest public constructor of `k`, or static factory of `k` returning `declared`
/// or `k`, whose arguments are values (primitives, elements, strings): the fewest strings,
/// then the fewest arguments, then by name.
fn simplest_maker(table: &ClassTable, k: ClassId, declared: &JType) -> Option<MethodId> {
    let own = JType::Class(table.class(k).name.clone());
    let value = |t: &JType| match t {
        JType::Float | JType::Double => false,
        JType::Class(c) => c == "java/lang/String" || ELEMENTS.contains(&c.as_str()),
        JType::Array(_) => false,
        _ => true,
    };
    let strings = |m: &MethodId| table.method(*m).desc.params.iter().filter(|t| matches!(t, JType::Class(_))).count();
    table
        .class(k)
        .methods
        .iter()
        .copied()
        .filter(|m| {
            let md = table.method(*m);
            let maker = md.name == "<init>"
                || (md.is_static() && (md.desc.ret.as_ref() == Some(&own) || md.desc.ret.as_ref() == Some(declared)));
            maker && md.access & access::PUBLIC != 0 && md.desc.params.iter().all(value)
        })
        .min_by_key(|m| (strings(m), table.method(*m).desc.params.len(), table.method(*m).name.clone()))
}

/// Whether a test in any package can name class `k`.
fn public_class(table: &ClassTable, k: ClassId) -> bool {
    let class = table.class(k);
    class.access & access::PUBLIC != 0
        && class.inner_access.is_none_or(|a| a & access::PUBLIC != 0 && a & access::STATIC != 0)
}

/// Whether `ty` is a collection or map type a recipe stands a JDK class for.
pub(super) fn is_collection_type(ty: &JType) -> bool {
    matches!(ty, JType::Class(c) if COLLECTIONS.iter().any(|(types, _, _)| types.contains(&c.as_str())))
}

/// Whether `ty` is an element type (a driver passes a boxed int or a string for it).
pub(super) fn is_element(ty: &JType) -> bool {
    matches!(ty, JType::Class(c) if c == "java/lang/String" || ELEMENTS.contains(&c.as_str()))
}

/// The operands of a site's arguments, made from block `blk` on: boxed ones through
/// `Integer.valueOf`, built ones by their recipes (blocks of their own, each covered by
/// `handler`). Returns the block where the operands are ready.
pub(super) fn operands(
    b: &mut Builder,
    table: &ClassTable,
    mut blk: BlockId,
    site: &Site,
    handler: &Handler,
) -> (BlockId, Vec<Operand>) {
    let mut out = Vec::new();
    for a in &site.args {
        let p = Operand::Local(LocalId(a.param as u32));
        match &a.how {
            How::Param => out.push(p),
            How::Boxed => out.push(boxed(b, table, blk, p, a.param)),
            How::Built(recipes) => {
                let x = b.local(format!("built{}", a.param), a.ty.clone());
                let join = b.block();
                let none = b.block();
                b.push(none, Stmt::Assign(x, Expr::Use(Operand::Const(Const::Null))));
                b.end(none, Terminator::Goto(join));
                let mut cases = Vec::new();
                for (k, r) in recipes.iter().enumerate() {
                    let rb = b.block();
                    b.cover(rb, handler);
                    let (end, obj) = recipe(b, table, rb, r, handler);
                    b.push(end, Stmt::Assign(x, Expr::Use(Operand::Local(obj))));
                    b.end(end, Terminator::Goto(join));
                    cases.push((k as i32, rb));
                }
                b.end(blk, Terminator::Switch { key: p, cases, default: none });
                b.cover(join, handler);
                blk = join;
                out.push(Operand::Local(x));
            }
        }
    }
    (blk, out)
}

/// The calls of recipe `r` from block `blk` on; returns the block they end in and the local
/// holding the object.
fn recipe(b: &mut Builder, table: &ClassTable, blk: BlockId, r: &Recipe, handler: &Handler) -> (BlockId, LocalId) {
    let x = b.local(format!("made{}", b.locals.len()), JType::Class(table.class(r.class).name.clone()));
    let mut blk = blk;
    for (i, site) in r.calls.iter().enumerate() {
        let (at, mut args) = operands(b, table, blk, site, handler);
        blk = at;
        let md = table.method(site.method);
        let owner = if i == 0 { md.owner } else { r.class };
        let method = MethodRef { owner, name: md.name.clone(), desc: md.desc.clone(), interface: false };
        if i == 0 && md.name == "<init>" {
            b.push(blk, Stmt::Assign(x, Expr::New(r.class)));
            args.insert(0, Operand::Local(x));
            b.push(blk, Stmt::Invoke(Call { kind: InvokeKind::Special, method, args }));
        } else if i == 0 {
            b.push(blk, Stmt::Assign(x, Expr::Invoke(Call { kind: InvokeKind::Static, method, args })));
        } else {
            args.insert(0, Operand::Local(x));
            b.push(blk, Stmt::Invoke(Call { kind: InvokeKind::Virtual, method, args }));
        }
    }
    (blk, x)
}

/// `Integer.valueOf(p)` in block `blk`.
fn boxed(b: &mut Builder, table: &ClassTable, blk: BlockId, p: Operand, param: usize) -> Operand {
    let ty = JType::Class("java/lang/Integer".into());
    let x = b.local(format!("boxed{param}"), ty.clone());
    let valueof = MethodRef {
        owner: table.intern("java/lang/Integer"),
        name: "valueOf".into(),
        desc: MethodDesc { params: vec![JType::Int], ret: Some(ty) },
        interface: false,
    };
    b.push(blk, Stmt::Assign(x, Expr::Invoke(Call { kind: InvokeKind::Static, method: valueof, args: vec![p] })));
    Operand::Local(x)
}
