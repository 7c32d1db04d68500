import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Pencil, Plus, Power, PowerOff } from 'lucide-react';
import { useState } from 'react';
import {
  CONTROL_KINDS,
  DEVICE_CATEGORIES,
  type DeviceModel,
  deviceModelEndpoints,
} from '@/contracts/devices';
import { can } from '@/contracts/roles';
import { formatMoney } from '@/domain/money';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { type Column, type FilterControl, ListPage } from '@/web/components/data-list';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { errorMessage } from '@/web/lib/queryClient';
import { FormDialog } from './form-dialog';
import { CATEGORY_LABELS, CONTROL_LABELS, labelOf } from './format';
import { ModelForm } from './model-form';
import { useOrganisation } from './queries';

const FILTERS: FilterControl[] = [
  {
    name: 'category',
    label: 'Category',
    allLabel: 'All categories',
    options: DEVICE_CATEGORIES.map((category) => [category, CATEGORY_LABELS[category] ?? category] as const),
    testId: 'model-category',
  },
  {
    name: 'controlKind',
    label: 'Control',
    allLabel: 'Any control',
    options: CONTROL_KINDS.map((kind) => [kind, CONTROL_LABELS[kind] ?? kind] as const),
    testId: 'model-control',
  },
  {
    name: 'active',
    label: 'State',
    allLabel: 'Active and inactive',
    options: [
      ['true', 'Active'],
      ['false', 'Inactive'],
    ],
    testId: 'model-active',
  },
];

type Editing = { model: DeviceModel | null } | null;

/** The Models tab of /devices: the catalogue, with create/edit and (de)activation for managers. */
export function ModelsList() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const organisation = useOrganisation();
  const [editing, setEditing] = useState<Editing>(null);
  const [toggling, setToggling] = useState<DeviceModel | null>(null);
  const writer = can(user, 'inventory.write');
  const currency = organisation.data?.currency ?? 'USD';

  const toggle = useMutation({
    mutationFn: (model: DeviceModel) =>
      api(deviceModelEndpoints[model.active ? 'deactivate' : 'activate'], { params: { id: model.id } }),
    onSuccess: (model) => {
      setToggling(null);
      void invalidate(queryClient, 'deviceModelSaved');
      toast({
        title: model.active ? 'Model activated' : 'Model deactivated',
        description: model.active
          ? `${model.name} takes new units again.`
          : `${model.name} takes no new units; its existing units are unchanged.`,
      });
    },
    onError: (error) => {
      setToggling(null);
      toast({ variant: 'destructive', title: 'Not changed', description: errorMessage(error) });
    },
  });

  const columns: Column<DeviceModel>[] = [
    {
      key: 'name',
      header: 'Model',
      sort: 'name',
      cell: (model) => (
        <span className="grid grid-cols-1">
          <span className="font-medium">{model.name}</span>
          {model.sku && <span className="font-mono text-muted-foreground text-xs">{model.sku}</span>}
          {!model.active && <span className="text-muted-foreground text-xs md:hidden">Inactive</span>}
        </span>
      ),
    },
    { key: 'category', header: 'Category', wide: true, cell: (m) => labelOf(CATEGORY_LABELS, m.category) },
    {
      key: 'retail',
      header: 'Retail price',
      sort: 'retailPrice',
      align: 'right',
      cell: (model) => formatMoney(model.retailPrice, model.currency),
    },
    {
      key: 'cost',
      header: 'Cost price',
      align: 'right',
      wide: true,
      cell: (model) => (model.costPrice === null ? '—' : formatMoney(model.costPrice, model.currency)),
    },
    { key: 'control', header: 'Control', wide: true, cell: (m) => labelOf(CONTROL_LABELS, m.controlKind) },
    { key: 'units', header: 'Units', align: 'right', wide: true, cell: (model) => model.units },
    {
      key: 'active',
      header: 'State',
      wide: true,
      cell: (model) =>
        model.active ? (
          <Badge variant="success">Active</Badge>
        ) : (
          <Badge variant="outline" className="text-muted-foreground">
            Inactive
          </Badge>
        ),
    },
  ];
  if (writer) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      align: 'right',
      cell: (model) => (
        <span className="inline-flex gap-1">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setEditing({ model })}
            aria-label={`Edit ${model.name}`}
            data-testid={`button-edit-model-${model.id}`}
          >
            <Pencil aria-hidden="true" />
            <span className="hidden lg:inline">Edit</span>
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setToggling(model)}
            aria-label={`${model.active ? 'Deactivate' : 'Activate'} ${model.name}`}
            data-testid={`button-toggle-model-${model.id}`}
          >
            {model.active ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
            <span className="hidden lg:inline">{model.active ? 'Deactivate' : 'Activate'}</span>
          </Button>
        </span>
      ),
    });
  }

  return (
    <div className="grid grid-cols-1 min-w-0">
      {writer && (
        <div className="mb-4 flex flex-wrap gap-2">
          <Button onClick={() => setEditing({ model: null })} data-testid="button-new-model">
            <Plus aria-hidden="true" /> New model
          </Button>
        </div>
      )}
      <ListPage<DeviceModel>
        endpoint={deviceModelEndpoints.list}
        initial={{ sort: 'name', order: 'asc' }}
        label="Device models"
        testId="models"
        searchPlaceholder="Search make, model or SKU"
        filters={FILTERS}
        columns={columns}
        empty={{
          filtered: 'No model matches this search or these filters.',
          none: 'No device models yet: a model (make, category, price, control) comes before its units.',
        }}
      />

      <FormDialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.model ? `Edit ${editing.model.name}` : 'New device model'}
        description={
          editing?.model
            ? 'Changes apply to the catalogue; contracts keep the price they were made with.'
            : 'What the lender sells: make, model, category, price and how a unit is controlled.'
        }
        testId="dialog-model"
      >
        {editing && (
          <ModelForm
            model={editing.model}
            currency={currency}
            onCancel={() => setEditing(null)}
            onSaved={(saved) => {
              toast({
                title: editing.model ? 'Model saved' : 'Model created',
                description: `${saved.name} is in the catalogue.`,
              });
              setEditing(null);
            }}
          />
        )}
      </FormDialog>

      <ConfirmDialog
        open={toggling !== null}
        onOpenChange={(open) => !open && setToggling(null)}
        title={toggling?.active ? `Deactivate ${toggling.name}?` : `Activate ${toggling?.name ?? ''}?`}
        description={
          toggling?.active
            ? 'No new units of this model can be received. Units already in the inventory, and their contracts, are not affected. You can activate it again later.'
            : 'New units of this model can be received again.'
        }
        confirmLabel={toggling?.active ? 'Deactivate' : 'Activate'}
        destructive={toggling?.active}
        pending={toggle.isPending}
        onConfirm={() => toggling && toggle.mutate(toggling)}
      />
    </div>
  );
}
