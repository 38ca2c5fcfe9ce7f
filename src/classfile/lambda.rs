//! Synthetic classes of lambda and method-reference call sites: what each one captures and calls.
//!
//! The lowering of an `invokedynamic` whose bootstrap method is `LambdaMetafactory` asks for
//! the class of its call site ([`ClassTable::lambda_class`]): one class per distinct site,
//! named `<Owner>$$Lambda$<bootstrap index>` (stable, whatever the order methods are lowered
//! in), loaded, implementing the functional interface, with one field per captured value
//! (`cap0`, `cap1`, ...) and the interface method (and its bridges), whose body the lowering
//! builds from the [`LambdaSite`] kept on the class. Such a class is not on the class path:
//! it is never listed, targeted, nor the class of an input object.

use std::rc::Rc;

use super::access;
use super::descriptor::MethodDesc;
use super::ids::{ClassId, MethodId};
pub use super::lambda_site::{LambdaSite, LambdaTarget, TargetKind};
use super::table::{Class, ClassTable, Field, Method};

impl ClassTable {
    /// The class of the lambda call site `site`, created the first time it is asked for. The
    /// same call site (owner, bootstrap entry, name, descriptor) always gets the same class.
    pub fn lambda_class(&self, site: LambdaSite) -> ClassId {
        let base = format!("{}$$Lambda${}", self.class(site.owner).name, site.bootstrap);
        let mut n = 1;
        let name = loop {
            let name = if n == 1 { base.clone() } else { format!("{base}${n}") };
            match self.lookup(&name) {
                None => break name,
                Some(c) => {
                    if let Some(old) = &self.class(c).lambda
                        && same_site(old, &site)
                    {
                        return c;
                    }
                }
            }
            n += 1;
        };
        // Everything the class names is interned first: its id is the next one.
        let object = self.intern("java/lang/Object");
        let mut interfaces = vec![site.interface];
        for m in &site.markers {
            if !interfaces.contains(m) {
                interfaces.push(*m);
            }
        }
        let id = self.next_class_id();
        let mut site = site;
        site.captured = site
            .site
            .params
            .iter()
            .enumerate()
            .map(|(i, ty)| {
                let (name, ty) = (format!("cap{i}"), ty.clone());
                self.push_field(|f| Field {
                    id: f,
                    owner: id,
                    name,
                    ty,
                    access: access::PRIVATE | access::FINAL,
                    constant: None,
                })
            })
            .collect();
        let mut descs: Vec<MethodDesc> = Vec::new();
        for d in &site.methods {
            if !descs.contains(d) {
                descs.push(d.clone());
            }
        }
        let method = |owner: ClassId, desc: &MethodDesc, access: u16, has_code: bool| {
            let (name, desc) = (site.name.clone(), desc.clone());
            move |m| Method { id: m, owner, name, desc, access, has_code, source: Default::default(), inherited: None }
        };
        let methods: Vec<MethodId> =
            descs.iter().map(|d| self.push_method(method(id, d, access::PUBLIC, true))).collect();
        // A functional interface the class path lacks is a phantom without methods: it learns
        // the abstract method, so that a call through it resolves and selects this class's.
        let iface = site.interface;
        if !self.class(iface).loaded
            && let Some(sam) = descs.first()
            && self.resolve_method(iface, &site.name, sam).is_none()
        {
            let abstract_ = self.push_method(method(iface, sam, access::PUBLIC | access::ABSTRACT, false));
            self.learn_method(iface, abstract_);
        }
        let origin = self.class(site.owner).origin.clone();
        self.push_class(Class {
            id,
            name,
            loaded: true,
            jdk: false,
            inner_access: None,
            signature: None,
            origin,
            access: access::PUBLIC | access::FINAL | access::SYNTHETIC,
            super_class: Some(object),
            interfaces,
            fields: site.captured.clone(),
            methods,
            bytes: None,
            lambda: Some(Rc::new(site)),
        })
    }
}

/// Whether two call sites are the same one (the captured fields aside).
fn same_site(a: &LambdaSite, b: &LambdaSite) -> bool {
    a.owner == b.owner && a.bootstrap == b.bootstrap && a.name == b.name && a.site == b.site
}
