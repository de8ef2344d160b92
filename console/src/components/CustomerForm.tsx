// Create or edit a customer: every input has a visible label; an error about a field
// (`param` $.input.<field>) appears beside that field, any other above the buttons.
import { useState, type FormEvent } from 'react';
import { graphql, useMutation } from 'react-relay';
import { errorItems, type ApiErrorItem } from '../relay/errors.ts';
import { Dialog } from './Dialog.tsx';
import { ErrorBox } from './ErrorBox.tsx';
import type { CustomerFormCreateMutation, CustomerInput } from '../__generated__/CustomerFormCreateMutation.graphql.ts';
import type { CustomerFormUpdateMutation } from '../__generated__/CustomerFormUpdateMutation.graphql.ts';

export interface CustomerValues {
  adminId?: string | null;
  name: string;
  externalReference?: string | null;
  country: string;
  entityType: 'PERSON' | 'ORGANISATION';
  billingEmail?: string | null;
  billingPhone?: string | null;
  companyRegNum?: string | null;
  localeId?: string | null;
}

type Field = keyof CustomerValues;

const FIELDS: { name: Field; label: string; type?: string; createOnly?: boolean; required?: boolean }[] = [
  { name: 'name', label: 'Name', required: true },
  { name: 'externalReference', label: 'External reference' },
  { name: 'country', label: 'Country (ISO 3166-1 alpha-2)', required: true },
  { name: 'billingEmail', label: 'Billing e-mail', type: 'email' },
  { name: 'billingPhone', label: 'Billing phone', type: 'tel' },
  { name: 'companyRegNum', label: 'Company registration number' },
  { name: 'localeId', label: 'Locale (e.g. nl-NL)' },
];

/** `$.input.billingEmail` → `billingEmail`. */
function fieldOf(item: ApiErrorItem): string | null {
  const match = /^\$\.input\.([A-Za-z]+)/.exec(item.param ?? '');
  return match ? match[1]! : null;
}

export function CustomerForm({ customerId, initial, administrations, onClose, onSaved }: {
  customerId?: string;
  initial: CustomerValues;
  administrations?: readonly { databaseId: string; name: string }[];
  onClose: () => void;
  onSaved: (databaseId: string) => void;
}) {
  const [values, setValues] = useState<CustomerValues>(initial);
  const [errors, setErrors] = useState<{ fields: Record<string, string>; other: ApiErrorItem[] }>({ fields: {}, other: [] });
  const [create, creating] = useMutation<CustomerFormCreateMutation>(graphql`
    mutation CustomerFormCreateMutation($input: CustomerInput!) { createCustomer(input: $input) { id databaseId } }
  `);
  const [update, updating] = useMutation<CustomerFormUpdateMutation>(graphql`
    mutation CustomerFormUpdateMutation($id: ID!, $input: CustomerInput!) {
      updateCustomer(id: $id, input: $input) { id databaseId name externalReference country entityType billingEmail billingPhone companyRegNum localeId updatedAt }
    }
  `);
  const fail = (error: unknown) => {
    const fields: Record<string, string> = {};
    const other: ApiErrorItem[] = [];
    for (const item of errorItems(error)) {
      const details = item.details?.length ? item.details.map((d) => ({ message: d.message, param: d.param, code: item.code })) : [item];
      for (const detail of details) {
        const field = fieldOf(detail);
        if (field && FIELDS.some((f) => f.name === field) && !fields[field]) fields[field] = detail.message;
        else other.push(detail);
      }
    }
    setErrors({ fields, other });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({ fields: {}, other: [] });
    // Only what changed; an emptied optional field is removed (null).
    const input: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values) as [Field, string | null | undefined][]) {
      const before = initial[key] ?? '';
      const now = typeof value === 'string' ? value.trim() : value ?? '';
      if (!customerId || now !== before) input[key] = now === '' ? null : now;
    }
    if (!customerId) {
      for (const key of Object.keys(input)) if (input[key] === null) delete input[key];
      create({ variables: { input: input as CustomerInput }, onCompleted: (r) => r.createCustomer && onSaved(r.createCustomer.databaseId), onError: fail });
    } else {
      update({ variables: { id: customerId, input: input as CustomerInput }, onCompleted: (r) => r.updateCustomer && onSaved(r.updateCustomer.databaseId), onError: fail });
    }
  };
  const busy = creating || updating;
  const set = (name: Field, value: string) => setValues({ ...values, [name]: value });
  return (
    <Dialog title={customerId ? `Edit ${initial.name}` : 'New customer'} onClose={onClose}>
      <form onSubmit={submit} className="form" noValidate>
        {!customerId && administrations ? (
          <div className="field">
            <label htmlFor="cf-adminId">Administration</label>
            <select id="cf-adminId" value={values.adminId ?? ''} onChange={(e) => set('adminId', e.target.value)} required>
              {administrations.map((a) => <option key={a.databaseId} value={a.databaseId}>{a.name}</option>)}
            </select>
          </div>
        ) : null}
        {!customerId ? (
          <div className="field">
            <label htmlFor="cf-entityType">Type</label>
            <select id="cf-entityType" value={values.entityType} onChange={(e) => set('entityType', e.target.value)}>
              <option value="PERSON">Person</option><option value="ORGANISATION">Organisation</option>
            </select>
          </div>
        ) : null}
        {FIELDS.map((f) => (
          <div className="field" key={f.name}>
            <label htmlFor={`cf-${f.name}`}>{f.label}</label>
            <input id={`cf-${f.name}`} type={f.type ?? 'text'} value={(values[f.name] as string | null | undefined) ?? ''} required={f.required}
              aria-invalid={errors.fields[f.name] ? true : undefined} aria-describedby={errors.fields[f.name] ? `cf-${f.name}-error` : undefined}
              onChange={(e) => set(f.name, e.target.value)} />
            {errors.fields[f.name] ? <p id={`cf-${f.name}-error`} className="field-error" role="alert">{errors.fields[f.name]}</p> : null}
          </div>
        ))}
        {errors.other.length ? <ErrorBox error={{ errors: errors.other }} title="Not saved" /> : null}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>{busy ? 'Saving…' : customerId ? 'Save customer' : 'Create customer'}</button>
          <button type="button" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </Dialog>
  );
}
