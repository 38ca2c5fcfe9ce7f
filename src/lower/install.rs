//! Building and installing a call-sequence driver (`driver.rs` says what one is): its
//! constructors, mutators, observers and the IR of its synthetic method.

use super::build::Builder;
use super::driver::{Driver, SEQUENCE_CLASS, Settings, Site, StepSites};
use super::recipes::{Params, is_collection_type, is_element, operands};
use crate::classfile::{ClassId, ClassTable, FieldId, JType, MethodDesc, MethodId, access};
use crate::ir::{
    BlockId, Body, Call, Const, Expr, FieldRef, Handler, InvokeKind, LocalId, MethodRef, Operand, Stmt, Terminator,
};
use crate::{Error, Result};

/// Constructors and factories a driver picks the receiver's from at most.
const MAX_MAKERS: usize = 4;

/// The methods of java.util's collection and map interfaces that change the collection.
const COLLECTION_MUTATORS: &[&str] = &[
    "add",
    "addAll",
    "addFirst",
    "addLast",
    "clear",
    "offer",
    "offerFirst",
    "offerLast",
    "poll",
    "pollFirst",
    "pollLast",
    "pop",
    "push",
    "put",
    "putAll",
    "putIfAbsent",
    "remove",
    "removeAll",
    "removeFirst",
    "removeLast",
    "retainAll",
    "set",
];

/// Methods no sequence calls by default: `Object`'s, those that copy or compare the receiver,
/// and capacity management, which changes no state a caller sees (and with a symbolic
/// argument makes array lengths symbolic).
const NEVER: &[&str] = &[
    "clone",
    "equals",
    "hashCode",
    "toString",
    "finalize",
    "readObject",
    "writeObject",
    "ensureCapacity",
    "trimToSize",
];

fn unusable(table: &ClassTable, m: MethodId, why: &str) -> Error {
    Error::Usage(format!("--inputs api cannot test {}: {why}", table.method_display(m)))
}

/// The public instance methods of `class` (declared or inherited, most derived first, by
/// name and descriptor) a sequence may call, sorted by name and descriptor.
fn public_methods(table: &ClassTable, class: ClassId) -> Vec<MethodId> {
    let mut seen = std::collections::BTreeMap::new();
    for c in table.superclasses(class) {
        if table.class(c).name == "java/lang/Object" {
            continue;
        }
        let methods = &table.class(c).methods;
        let own = |name: &str| {
            methods
                .iter()
                .any(|m| table.method(*m).access & access::COMPILER_MADE == 0 && table.method(*m).name == name)
        };
        for m in methods {
            let md = table.method(*m);
            // An access bridge (javac's, for a public method of a package-private superclass)
            // stands for the superclass's method, which is then the one listed; a bridge to a
            // method of the same name the class declares hides it.
            if md.access & access::COMPILER_MADE != 0 && !own(&md.name) {
                continue;
            }
            let key = (md.name.clone(), md.desc.descriptor());
            seen.entry(key).or_insert(*m);
        }
    }
    seen.into_values()
        .filter(|m| {
            let md = table.method(*m);
            md.access & access::PUBLIC != 0
                && !md.is_static()
                && !md.is_abstract()
                && md.access & access::COMPILER_MADE == 0
                && !md.name.starts_with('<')
                && !NEVER.contains(&md.name.as_str())
        })
        .collect()
}

impl super::Program {
    /// Builds and installs the driver of `target` (see the module comment) and lowers what it
    /// may reach; returns the driver.
    pub fn install_driver(&mut self, target: MethodId, settings: &Settings) -> Result<std::rc::Rc<Driver>> {
        if let Some(d) = self.driver_of(target) {
            return Ok(d.clone());
        }
        let table = &self.table;
        let tm = table.method(target).clone();
        if tm.is_private() {
            return Err(unusable(table, target, "it is private, so no test calls it"));
        }
        let class = tm.owner;
        let mut params = Params::new(table, class, settings.strings);
        let (ctors, mutators) = if tm.is_static() {
            (Vec::new(), Vec::new())
        } else {
            let c = table.class(class);
            if c.is_interface() || c.is_abstract() {
                return Err(unusable(table, target, "its class is abstract, so no constructor builds a receiver"));
            }
            let own = JType::Class(c.name.clone());
            // Public constructors, and static factories of the class returning it
            // (`Fraction.getFraction(int, int)`, `SetUniqueList.setUniqueList(List)`).
            let mut ctors: Vec<MethodId> = c
                .methods
                .iter()
                .copied()
                .filter(|m| {
                    let md = table.method(*m);
                    let maker = md.name == "<init>" || (md.is_static() && md.desc.ret.as_ref() == Some(&own));
                    maker
                        && md.access & access::PUBLIC != 0
                        && md.desc.params.iter().all(|p| params.buildable(table, p, false))
                })
                .collect();
            // The no-argument constructor when there is one (a capacity argument only makes
            // states no call can tell apart, and symbolic array lengths), else the simplest
            // few: fewer object arguments (a string to parse, a collection), then fewer
            // arguments, constructors before factories.
            let key = |m: &MethodId| {
                let md = table.method(*m);
                let objects = md.desc.params.iter().filter(|p| matches!(p, JType::Class(_) | JType::Array(_))).count();
                (objects, md.desc.params.len(), md.is_static(), md.name.clone(), md.desc.descriptor())
            };
            ctors.sort_by_key(key);
            if ctors.first().is_some_and(|m| table.method(*m).desc.params.is_empty()) {
                ctors.truncate(1);
            }
            ctors.truncate(MAX_MAKERS);
            ctors.sort_by_key(|m| key(m).1);
            if ctors.is_empty() {
                return Err(unusable(
                    table,
                    target,
                    "its class has no public constructor or factory whose arguments a test can build",
                ));
            }
            (ctors, self.mutators(class, settings, &mut params)?)
        };
        let table = &self.table;
        let ctor_choice = (ctors.len() > 1).then(|| params.add("ctor".into(), JType::Int));
        let ctor_sites: Vec<Site> =
            ctors.iter().enumerate().filter_map(|(k, m)| params.site(table, *m, &format!("new{k}"))).collect();
        let n = if tm.is_static() { 0 } else { settings.max_calls as usize };
        let mut step_params = Vec::new();
        for s in 1..=n {
            let choice = params.add(format!("c{s}"), JType::Int);
            let sites: Vec<Site> = mutators
                .iter()
                .map(|m| params.site(table, *m, &format!("s{s}_{}", table.method(*m).name)))
                .collect::<Option<_>>()
                .ok_or_else(|| unusable(table, target, "a mutator has an argument a test cannot build"))?;
            step_params.push((choice, sites));
        }
        // `equals(Object)` is asked about an object of its own class too, not only elements.
        let equals = !tm.is_static() && tm.name == "equals" && tm.desc.descriptor() == "(Ljava/lang/Object;)Z";
        let other = if equals { params.other(table, class, "equals_0") } else { None };
        let call = other.map(|a| Site { method: target, args: vec![a] });
        let call = call.or_else(|| params.site(table, target, &tm.name)).ok_or_else(|| {
            unusable(
                table,
                target,
                "an argument's type is one a test cannot build (primitives, elements, strings, collections and maps, \
                 objects of the class path made by a public constructor or factory)",
            )
        })?;
        let jdk_class = {
            let name = &table.class(class).name;
            ["java/", "javax/", "jdk/", "sun/"].iter().any(|p| name.starts_with(p))
        };
        // A collection's state is what `size()` and `toArray()` show a caller.
        let observed = jdk_class || is_collection(table, class);
        let observer_methods: Vec<MethodId> = if observed && !tm.is_static() {
            let candidates: Vec<MethodId> = public_methods(table, class)
                .into_iter()
                .filter(|m| {
                    let md = table.method(*m);
                    let objects = Some(JType::Array(Box::new(JType::object())));
                    md.desc.params.is_empty()
                        && ((md.name == "size" && md.desc.ret == Some(JType::Int))
                            || (md.name == "toArray" && md.desc.ret == objects))
                })
                .collect();
            // An observer that would stop at code neither loaded nor modelled would cut every
            // trace after the call: such an observer is not run.
            candidates.into_iter().filter(|m| self.runs_to_the_end(*m)).collect()
        } else {
            Vec::new()
        };
        // The synthetic class, its fields and the method.
        let index = self.drivers.len();
        let seq = self.table.intern(SEQUENCE_CLASS);
        let class_ty = JType::Class(self.table.class(class).name.clone());
        let receiver = (!tm.is_static()).then(|| {
            self.table.add_field(
                seq,
                format!("receiver{index}"),
                class_ty.clone(),
                access::PUBLIC | access::STATIC,
                None,
            )
        });
        let mut observers = Vec::new();
        for (k, m) in observer_methods.iter().enumerate() {
            let ty = self.table.method(*m).desc.ret.clone().unwrap_or(JType::Int);
            let f =
                self.table.add_field(seq, format!("observed{index}_{k}"), ty, access::PUBLIC | access::STATIC, None);
            observers.push((*m, f));
        }
        let desc =
            MethodDesc { params: params.names.iter().map(|(_, t)| t.clone()).collect(), ret: tm.desc.ret.clone() };
        let method = self.table.add_method(seq, format!("drive{index}"), desc, access::PUBLIC | access::STATIC, true);
        let table = &self.table;
        // The body.
        let mut b = Builder::starting_at(1);
        for (name, ty) in &params.names {
            b.local(name.clone(), ty.clone());
        }
        let r = b.local("r".into(), class_ty.clone());
        let exc = b.local("thrown".into(), JType::Class("java/lang/Throwable".into()));
        let entry = b.block();
        let threw = b.block();
        b.end(threw, Terminator::Return(None));
        let catch_all = Handler { catch: None, target: threw, exception: exc };
        let ready = entry;
        let steps_blocks: Vec<BlockId> = (0..=n).map(|_| b.block()).collect();
        let mut_block = b.block();
        // Constructors and factories.
        let ctor_blocks: Vec<BlockId> = ctor_sites.iter().map(|_| b.block()).collect();
        let mut ctor_pc = None;
        match (ctor_choice, ctor_blocks.as_slice()) {
            (Some(p), _) => {
                // Constructor 0 is the default (so no two decisions pick one constructor).
                let cases = ctor_blocks.iter().enumerate().skip(1).map(|(k, blk)| (k as i32, *blk)).collect();
                let default = ctor_blocks.first().copied().unwrap_or(threw);
                ctor_pc =
                    Some(b.end(ready, Terminator::Switch { key: Operand::Local(LocalId(p as u32)), cases, default }));
            }
            (None, [only]) => {
                b.end(ready, Terminator::Goto(*only));
            }
            (None, _) => {
                b.end(ready, Terminator::Goto(steps_blocks.first().copied().unwrap_or(mut_block)));
            }
        }
        for (site, blk) in ctor_sites.iter().zip(&ctor_blocks) {
            b.cover(*blk, &catch_all);
            let factory = table.method(site.method).is_static();
            if !factory {
                b.push(*blk, Stmt::Assign(r, Expr::New(class)));
            }
            let (at, mut args) = operands(&mut b, table, *blk, site, &catch_all);
            if factory {
                let call = Call { kind: InvokeKind::Static, method: method_ref(table, site.method, class), args };
                b.push(at, Stmt::Assign(r, Expr::Invoke(call)));
            } else {
                args.insert(0, Operand::Local(r));
                let method = method_ref(table, site.method, class);
                b.push(at, Stmt::Invoke(Call { kind: InvokeKind::Special, method, args }));
            }
            if let Some(f) = receiver {
                b.push(at, Stmt::PutStatic(field_ref(table, f), Operand::Local(r)));
            }
            if let Some(first) = steps_blocks.first() {
                b.end(at, Terminator::Goto(*first));
            }
        }
        // Steps.
        let mut steps = Vec::new();
        for (s, blk) in steps_blocks.iter().enumerate() {
            let (key, sites) = match step_params.get(s) {
                Some((choice, sites)) => (Operand::Local(LocalId(*choice as u32)), sites.clone()),
                None => (Operand::Const(Const::Int(0)), Vec::new()),
            };
            let next = steps_blocks.get(s + 1).copied().unwrap_or(mut_block);
            let mut cases = Vec::new();
            for (i, site) in sites.iter().enumerate() {
                let cb = b.block();
                b.cover(cb, &catch_all);
                let (at, mut args) = operands(&mut b, table, cb, site, &catch_all);
                args.insert(0, Operand::Local(r));
                let method = method_ref(table, site.method, class);
                b.push(at, Stmt::Invoke(Call { kind: InvokeKind::Virtual, method, args }));
                b.end(at, Terminator::Goto(next));
                cases.push((i as i32, cb));
            }
            let pc = b.end(*blk, Terminator::Switch { key, cases, default: mut_block });
            steps.push(StepSites { pc, block: *blk, calls: sites });
        }
        // The arguments of the method under test are made after the prefix, so that every
        // receiver a prefix reaches meets each way of building them (a null collection, an
        // empty one, ...) before a longer prefix runs; a switch of one case then marks where
        // the tested path starts (the recipes' decisions are part of the prefix).
        let (made, mut call_args) = operands(&mut b, table, mut_block, &call, &catch_all);
        let call_block = if made == mut_block && call.args.iter().all(|a| matches!(a.how, super::driver::How::Param)) {
            mut_block
        } else {
            let cb = b.block();
            let key = Operand::Const(Const::Int(0));
            b.end(made, Terminator::Switch { key, cases: Vec::new(), default: cb });
            cb
        };
        // The call of the method under test, then the observers.
        let mut args = if tm.is_static() { Vec::new() } else { vec![Operand::Local(r)] };
        args.append(&mut call_args);
        let kind = if tm.is_static() { InvokeKind::Static } else { InvokeKind::Virtual };
        let invoke = Call { kind, method: method_ref(table, target, class), args };
        let result = tm.desc.ret.clone().map(|ty| b.local("result".into(), ty));
        match result {
            Some(x) => b.push(call_block, Stmt::Assign(x, Expr::Invoke(invoke))),
            None => b.push(call_block, Stmt::Invoke(invoke)),
        }
        // The observers run after a switch of one case: its decision ends the tested path, so
        // the observers' own decisions (toArray's loop) are no part of it.
        let mut observe_pc = None;
        let last = if observers.is_empty() {
            call_block
        } else {
            let obs = b.block();
            let key = Operand::Const(Const::Int(0));
            observe_pc = Some(b.end(call_block, Terminator::Switch { key, cases: Vec::new(), default: obs }));
            obs
        };
        for (m, f) in &observers {
            let ty = table.field(*f).ty.clone();
            let v = b.local(format!("observed_{}", table.method(*m).name), ty);
            let call =
                Call { kind: InvokeKind::Virtual, method: method_ref(table, *m, class), args: vec![Operand::Local(r)] };
            b.push(last, Stmt::Assign(v, Expr::Invoke(call)));
            b.push(last, Stmt::PutStatic(field_ref(table, *f), Operand::Local(v)));
        }
        b.end(last, Terminator::Return(result.map(Operand::Local)));
        let body = Body { method, locals: b.locals, param_count: params.names.len(), blocks: b.blocks };
        let driver = std::rc::Rc::new(Driver {
            method,
            target,
            class,
            receiver,
            receiver_local: (!tm.is_static()).then_some(r),
            ctors: ctor_sites,
            ctor_pc,
            steps,
            call,
            observers,
            observe_pc,
            threw,
            mutators,
        });
        self.install(method, body);
        self.drivers.insert(method, driver.clone());
        Ok(driver)
    }

    /// The mutators of `class`: `settings.methods` by name, or every public instance method
    /// whose arguments a driver can build, that returns nothing, a primitive or an element
    /// (`Object`, `Integer`, `String`, ...), and that may write a field of the class.
    fn mutators(&mut self, class: ClassId, settings: &Settings, params: &mut Params) -> Result<Vec<MethodId>> {
        let table = &self.table;
        let all = public_methods(table, class);
        let mut buildable_args =
            |m: &MethodId| table.method(*m).desc.params.iter().all(|p| params.buildable(table, p, false));
        if !settings.methods.is_empty() {
            let mut out = Vec::new();
            for name in &settings.methods {
                let found: Vec<MethodId> =
                    all.iter().copied().filter(|m| &table.method(*m).name == name && buildable_args(m)).collect();
                if found.is_empty() {
                    return Err(Error::Usage(format!(
                        "--sequence-methods: {} has no public method {name} whose arguments a test can build",
                        table.class(class).java_name()
                    )));
                }
                out.extend(found);
            }
            return Ok(out);
        }
        // A method that returns another object than an element (a view, an iterator, an
        // entry) is not a mutator by default: its writes fill caches (`keySet()`).
        let returns_element = |m: &MethodId| match &table.method(*m).desc.ret {
            None => true,
            Some(ty @ JType::Class(_)) => is_element(ty),
            Some(JType::Array(_)) => false,
            Some(_) => true,
        };
        let candidates: Vec<MethodId> = all.into_iter().filter(|m| buildable_args(m) && returns_element(m)).collect();
        let chain = self.table.superclasses(class);
        let collection = is_collection(&self.table, class);
        let mut out = Vec::new();
        for m in candidates {
            // A collection's own mutators change it even where they only call a decorated
            // collection's (an interface call whose code is not known here); so do methods
            // named as changing something (`addComparator`, `setReverseSort`) that keep their
            // state in JDK objects (a List, a BitSet).
            let name = self.table.method(m).name.as_str();
            let named = (collection && COLLECTION_MUTATORS.contains(&name)) || named_as_mutator(name);
            if named || self.writes_fields_of(m, &chain) {
                out.push(m);
            }
        }
        // Bulk operations (`addAll`, `removeAll`, `putAll`) reach no state a sequence of
        // element-wise ones does not, at the cost of building a collection per call.
        let table = &self.table;
        let bulk = |m: &MethodId| table.method(*m).desc.params.iter().any(is_collection_type);
        if out.iter().any(|m| !bulk(m)) {
            out.retain(|m| !bulk(m));
        }
        Ok(out)
    }

    /// Whether every call `m` may make (within a bounded number of methods) has code or a
    /// model of `crate::models`, so that running it never ends a trace for want of one.
    fn runs_to_the_end(&mut self, m: MethodId) -> bool {
        let mut work = vec![m];
        let mut seen = std::collections::BTreeSet::from([m]);
        while let Some(x) = work.pop() {
            if seen.len() > 200 {
                return false;
            }
            let Ok(body) = self.lower(x) else { return false };
            for b in &body.blocks {
                for i in &b.instrs {
                    let (Stmt::Invoke(call) | Stmt::Assign(_, Expr::Invoke(call))) = &i.stmt else { continue };
                    let desc = call.method.desc.descriptor();
                    let table = &self.table;
                    let modelled = table
                        .superclasses(call.method.owner)
                        .iter()
                        .any(|c| crate::models::lookup(&table.class(*c).name, &call.method.name, &desc).is_some())
                        || table.java_model(call.method.owner, &call.method.name, &call.method.desc).is_some();
                    if modelled {
                        continue;
                    }
                    match table.resolve_method(call.method.owner, &call.method.name, &call.method.desc) {
                        Some(t) if table.method(t).has_code => {
                            if seen.insert(t) {
                                work.push(t);
                            }
                        }
                        // Abstract: the override a receiver selects is looked at where it is loaded.
                        Some(t) if table.method(t).is_abstract() => {}
                        _ => return false,
                    }
                }
            }
        }
        true
    }

    /// Whether `m`, or a method of `classes` that it may call (not a constructor), writes a
    /// field declared by one of `classes` (looked at within a bounded number of methods: a method whose writes are
    /// beyond it is not a mutator).
    fn writes_fields_of(&mut self, m: MethodId, classes: &[ClassId]) -> bool {
        let names: Vec<String> = classes.iter().map(|c| self.table.class(*c).name.clone()).collect();
        let related = |table: &ClassTable, x: MethodId| names.contains(&table.class(table.method(x).owner).name);
        let mut work = vec![m];
        let mut seen = std::collections::BTreeSet::from([m]);
        while let Some(x) = work.pop() {
            if seen.len() > 200 {
                return false;
            }
            let Ok(body) = self.lower(x) else { continue };
            let writes = body.blocks.iter().flat_map(|b| &b.instrs).any(|i| match &i.stmt {
                Stmt::PutField(_, f, _) => classes.contains(&f.owner),
                _ => false,
            });
            if writes {
                return true;
            }
            for c in self.callees(&body) {
                // A constructor or class initializer writes the fields of a new object.
                let makes = self.table.method(c).name.starts_with('<');
                if self.table.method(c).has_code && !makes && related(&self.table, c) && seen.insert(c) {
                    work.push(c);
                }
            }
        }
        false
    }
}

/// Verbs that name a method changing its receiver, as the first word of a camel-case name.
const MUTATOR_VERBS: &[&str] = &["add", "append", "clear", "insert", "push", "put", "remove", "set"];

/// Whether `name` is a mutator verb or starts with one followed by a capital
/// (`addComparator`, `setReverseSort`; not `settle`, `address`).
fn named_as_mutator(name: &str) -> bool {
    MUTATOR_VERBS.iter().any(|v| {
        name.strip_prefix(v).is_some_and(|rest| rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_uppercase()))
    })
}

/// Whether `class` is a collection or a map of java.util's interfaces.
fn is_collection(table: &ClassTable, class: ClassId) -> bool {
    ["java/util/Collection", "java/util/Map"]
        .iter()
        .any(|i| table.lookup(i).is_some_and(|i| table.is_subclass(class, i)))
}

fn method_ref(table: &ClassTable, m: MethodId, class: ClassId) -> MethodRef {
    let md = table.method(m);
    let owner = if md.name == "<init>" { md.owner } else { class };
    MethodRef { owner, name: md.name.clone(), desc: md.desc.clone(), interface: false }
}

fn field_ref(table: &ClassTable, f: FieldId) -> FieldRef {
    let fd = table.field(f);
    FieldRef { owner: fd.owner, name: fd.name.clone(), ty: fd.ty.clone() }
}
